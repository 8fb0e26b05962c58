/** The errors part of the catalogue (see ../types.ts, Part). */
import type { Part } from "../types.js";

const en = {
  "error.placeholder": "",
};

export const errors = {
  en,
  nl: { "error.placeholder": "" },
  de: { "error.placeholder": "" },
} satisfies Part<keyof typeof en>;
