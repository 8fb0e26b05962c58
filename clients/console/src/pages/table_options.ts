/**
 * The table options of the "Create a table" form: each game's own options (TheGangOptions,
 * GangOfFourOptions, PinchedOptions: what a person sets; the piles continued from an
 * earlier game and a replacement component table are for programs), the clock and the
 * move limit, drawn as fields and read back from the form into a `TableOptions`.
 * The referee checks every value; the form only offers the choices the rules name.
 */
import {
  Location,
  NoShow,
  Side,
  TheGangMode,
  type MessageInitShape,
  type TableOptionsSchema,
} from "@referee/client/web";
import { html, nothing, type TemplateResult } from "lit-html";

import { t, type Key } from "../i18n/index.js";

/** Seats each game takes (CreateGameRequest.seats). */
export const SEAT_RANGE: Record<string, [number, number]> = {
  the_gang: [3, 6],
  gang_of_four: [3, 4],
  pinched: [2, 5],
};

/** Pinched!'s recommended setups and the player count each is for (PinchedOptions.setup). */
const PINCHED_SETUPS: [string, number, Key][] = [
  ["paranoid_owner", 2, "page.setup.paranoid_owner"],
  ["search_for_lisa_mona", 3, "page.setup.search_for_lisa_mona"],
  ["cursed_secrets", 4, "page.setup.cursed_secrets"],
  ["the_whole_package", 5, "page.setup.the_whole_package"],
];

const LOCATIONS: [Location, Key][] = [
  [Location.DIAMONDS, "page.location.diamonds"],
  [Location.CLUBS, "page.location.clubs"],
  [Location.SPADES, "page.location.spades"],
  [Location.HEARTS, "page.location.hearts"],
  [Location.BANK, "page.location.bank"],
];

const MODES: [TheGangMode, Key][] = [
  [TheGangMode.BASIC, "page.mode.basic"],
  [TheGangMode.ADVANCED, "page.mode.advanced"],
  [TheGangMode.PROFESSIONAL, "page.mode.professional"],
  [TheGangMode.MASTER_THIEF, "page.mode.masterThief"],
];

export type TableOptionsInit = MessageInitShape<typeof TableOptionsSchema>;

function check(name: string, label: string, hint = ""): TemplateResult {
  return html`<label class="check"><input type="checkbox" name="${name}" data-testid="opt-${name}" />
    <span>${label}${hint ? html` <small class="muted">${hint}</small>` : nothing}</span></label>`;
}

function theGangFields(): TemplateResult {
  return html`<label class="field"
      ><span>${t("page.opt.mode")}</span>
      <select name="mode" data-testid="opt-mode">
        ${MODES.map(([mode, label]) => html`<option value="${mode}">${t(label)}</option>`)}
      </select></label
    >
    ${check("confirm_round_end", t("page.opt.confirmRoundEnd"), t("page.opt.confirmRoundEndHint"))}
    ${check("shuffle_piles", t("page.opt.shufflePiles"))}
    ${check("ordered_challenges", t("page.opt.orderedChallenges"), t("page.opt.orderedChallengesHint"))}`;
}

function pinchedFields(seats: number, custom: boolean, onSetup: (event: Event) => void): TemplateResult {
  const fitting = PINCHED_SETUPS.filter(([, players]) => players === seats);
  return html`<label class="field"
      ><span>${t("page.opt.setup")}</span>
      <select name="setup" data-testid="opt-setup" @change=${onSetup}>
        <option value="basic">${t("page.opt.basicFor", { seats })}</option>
        ${fitting.map(([name, , label]) => html`<option value="${name}">${t("page.opt.recommended", { name: t(label) })}</option>`)}
        <option value="custom" ?selected=${custom}>${t("page.opt.custom")}</option>
      </select></label
    >
    ${custom
      ? html`<fieldset class="locations">
          <legend>${t("page.opt.locations")}</legend>
          ${LOCATIONS.map(
            ([location, label]) => html`<label class="field inline"
              ><span>${t(label)}</span>
              <select name="location-${location}" data-testid="opt-location-${location}">
                <option value="">${t("page.opt.notInPlay")}</option>
                <option value="${Side.STANDARD}">${t("page.opt.standardSide")}</option>
                <option value="${Side.CROWN}">${t("page.opt.crownSide")}</option>
              </select></label
            >`,
          )}
        </fieldset>`
      : nothing}`;
}

/** The fields of `game`'s own options. `custom`: Pinched!'s locations are being chosen. */
export function gameFields(game: string, seats: number, custom: boolean, onSetup: (event: Event) => void): TemplateResult {
  switch (game) {
    case "the_gang":
      return theGangFields();
    case "gang_of_four":
      return check("auto_announce_last_card", t("page.opt.autoAnnounce"), t("page.opt.autoAnnounceHint"));
    case "pinched":
      return pinchedFields(seats, custom, onSetup);
    default:
      return html``;
  }
}

function number(name: string, label: string, hint: string, max: number): TemplateResult {
  return html`<label class="field"
    ><span>${label} <small class="muted">${hint}</small></span>
    <input type="number" name="${name}" data-testid="clock-${name}" min="0" max="${max}" step="1" value="0" inputmode="numeric"
  /></label>`;
}

/** The clock's fields (Clock): a limit per move and/or a bank with an increment, and the no-show policy. */
export function clockFields(): TemplateResult {
  return html`<fieldset class="clock-fields">
    <legend>${t("page.clock.legend")} <small class="muted">${t("page.clock.legendHint")}</small></legend>
    ${number("move_seconds", t("page.clock.moveSeconds"), t("page.clock.moveSecondsHint"), 86400)}
    ${number("bank_seconds", t("page.clock.bankSeconds"), t("page.clock.bankSecondsHint"), 86400)}
    ${number("increment_seconds", t("page.clock.increment"), t("page.clock.incrementHint"), 3600)}
    ${number("no_show_after", t("page.clock.noShowAfter"), t("page.clock.noShowAfterHint"), 1000)}
    <label class="field"
      ><span>${t("page.clock.then")}</span>
      <select name="no_show" data-testid="clock-no_show">
        <option value="${NoShow.UNSPECIFIED}">${t("page.clock.noShowClock")}</option>
        <option value="${NoShow.BOT}">${t("page.clock.noShowBot")}</option>
        <option value="${NoShow.FORFEIT}">${t("page.clock.noShowForfeit")}</option>
      </select></label
    >
  </fieldset>`;
}

const int = (form: FormData, name: string): number => {
  const value = Number.parseInt(String(form.get(name) ?? ""), 10);
  return Number.isFinite(value) ? value : 0;
};

function clockOf(form: FormData): TableOptionsInit["clock"] {
  const clock = {
    moveSeconds: int(form, "move_seconds"),
    bankSeconds: int(form, "bank_seconds"),
    incrementSeconds: int(form, "increment_seconds"),
    noShowAfter: int(form, "no_show_after"),
    noShow: int(form, "no_show") as NoShow,
  };
  if (Object.values(clock).every((value) => value === 0)) return undefined;
  return clock;
}

function gameOptions(game: string, form: FormData): TableOptionsInit["game"] {
  const on = (name: string) => form.get(name) === "on";
  switch (game) {
    case "the_gang":
      return {
        case: "theGang",
        value: {
          mode: int(form, "mode") as TheGangMode,
          confirmRoundEnd: on("confirm_round_end"),
          shufflePiles: on("shuffle_piles"),
          orderedChallenges: on("ordered_challenges"),
        },
      };
    case "gang_of_four":
      return { case: "gangOfFour", value: { autoAnnounceLastCard: on("auto_announce_last_card") } };
    case "pinched": {
      const setup = String(form.get("setup") ?? "basic");
      if (setup !== "custom") return { case: "pinched", value: { setup } };
      const locations = LOCATIONS.flatMap(([location]) => {
        const side = int(form, `location-${location}`);
        return side ? [{ location, side: side as Side }] : [];
      });
      return { case: "pinched", value: { locations } };
    }
    default:
      return undefined;
  }
}

/** The TableOptions the form says, for `game`. */
export function optionsOf(game: string, form: FormData): TableOptionsInit {
  const limit = int(form, "move_limit");
  return {
    game: gameOptions(game, form),
    clock: clockOf(form),
    ...(limit > 0 ? { moveLimit: limit } : {}),
  };
}
