/** The pages part of the catalogue (see ../types.ts, Part). */
import type { Part } from "../types.js";

const en = {
  "page.placeholder": "",
};

export const pages = {
  en,
  nl: { "page.placeholder": "" },
  de: { "page.placeholder": "" },
} satisfies Part<keyof typeof en>;
