/** The pinched part of the catalogue (see ../types.ts, Part). */
import type { Part } from "../types.js";

const en = {
  "pinched.placeholder": "",
};

export const pinched = {
  en,
  nl: { "pinched.placeholder": "" },
  de: { "pinched.placeholder": "" },
} satisfies Part<keyof typeof en>;
