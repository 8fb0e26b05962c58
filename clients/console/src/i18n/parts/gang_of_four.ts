/** The gang of four part of the catalogue (see ../types.ts, Part). */
import type { Part } from "../types.js";

const en = {
  "gof.placeholder": "",
};

export const gangOfFour = {
  en,
  nl: { "gof.placeholder": "" },
  de: { "gof.placeholder": "" },
} satisfies Part<keyof typeof en>;
