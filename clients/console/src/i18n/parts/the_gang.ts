/** The the gang part of the catalogue (see ../types.ts, Part). */
import type { Part } from "../types.js";

const en = {
  "gang.placeholder": "",
};

export const theGang = {
  en,
  nl: { "gang.placeholder": "" },
  de: { "gang.placeholder": "" },
} satisfies Part<keyof typeof en>;
