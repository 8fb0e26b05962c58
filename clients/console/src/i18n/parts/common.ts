/** The chrome every page shares: the header, the language switch, the details toggle. */
import type { Part } from "../types.js";

const en = {
  "common.tables": "Tables",
  "common.tournaments": "Tournaments",
  "common.sections": "Sections",
  "common.language": "Language",
  "common.details": "Details",
  "common.detailsHint": "For developers: versions, addresses, reason codes",
  "common.apiAddress": "Referee address: {address}",
  "common.version": "Version {version}",
  "common.reason": "Reason code: {code}",
  "common.nothingHere": "Nothing here.",
  "common.backToTables": "Back to the tables",
};

export const common = {
  en,
  nl: {
    "common.tables": "Tafels",
    "common.tournaments": "Toernooien",
    "common.sections": "Onderdelen",
    "common.language": "Taal",
    "common.details": "Details",
    "common.detailsHint": "Voor ontwikkelaars: versies, adressen, redencodes",
    "common.apiAddress": "Adres van de scheidsrechter: {address}",
    "common.version": "Versie {version}",
    "common.reason": "Redencode: {code}",
    "common.nothingHere": "Hier is niets.",
    "common.backToTables": "Terug naar de tafels",
  },
  de: {
    "common.tables": "Tische",
    "common.tournaments": "Turniere",
    "common.sections": "Bereiche",
    "common.language": "Sprache",
    "common.details": "Details",
    "common.detailsHint": "Für Entwickler: Versionen, Adressen, Fehlercodes",
    "common.apiAddress": "Adresse des Schiedsrichters: {address}",
    "common.version": "Version {version}",
    "common.reason": "Fehlercode: {code}",
    "common.nothingHere": "Hier ist nichts.",
    "common.backToTables": "Zurück zu den Tischen",
  },
} satisfies Part<keyof typeof en>;
