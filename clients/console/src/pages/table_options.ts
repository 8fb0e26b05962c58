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

/** Seats each game takes (CreateGameRequest.seats). */
export const SEAT_RANGE: Record<string, [number, number]> = {
  the_gang: [3, 6],
  gang_of_four: [3, 4],
  pinched: [2, 5],
};

/** Pinched!'s recommended setups and the player count each is for (PinchedOptions.setup). */
const PINCHED_SETUPS: [string, number, string][] = [
  ["paranoid_owner", 2, "Paranoid owner"],
  ["search_for_lisa_mona", 3, "Search for Lisa Mona"],
  ["cursed_secrets", 4, "Cursed secrets"],
  ["the_whole_package", 5, "The whole package"],
];

const LOCATIONS: [Location, string][] = [
  [Location.DIAMONDS, "Diamonds mansion"],
  [Location.CLUBS, "Clubs mansion"],
  [Location.SPADES, "Spades mansion"],
  [Location.HEARTS, "Hearts mansion"],
  [Location.BANK, "Stonewall Bank"],
];

const MODES: [TheGangMode, string][] = [
  [TheGangMode.BASIC, "Basic"],
  [TheGangMode.ADVANCED, "Advanced (challenges and specialists)"],
  [TheGangMode.PROFESSIONAL, "Professional"],
  [TheGangMode.MASTER_THIEF, "Master Thief"],
];

export type TableOptionsInit = MessageInitShape<typeof TableOptionsSchema>;

function check(name: string, label: string, hint = ""): TemplateResult {
  return html`<label class="check"><input type="checkbox" name="${name}" data-testid="opt-${name}" />
    <span>${label}${hint ? html` <small class="muted">${hint}</small>` : nothing}</span></label>`;
}

function theGangFields(): TemplateResult {
  return html`<label class="field"
      ><span>Mode</span>
      <select name="mode" data-testid="opt-mode">
        ${MODES.map(([mode, label]) => html`<option value="${mode}">${label}</option>`)}
      </select></label
    >
    ${check("confirm_round_end", "Confirm each round's end", "every seat confirms before the round ends")}
    ${check("shuffle_piles", "Shuffle the challenge and specialist piles")}
    ${check("ordered_challenges", "Challenges in order", "Professional and Master Thief only, for teaching")}`;
}

function pinchedFields(seats: number, custom: boolean, onSetup: (event: Event) => void): TemplateResult {
  const fitting = PINCHED_SETUPS.filter(([, players]) => players === seats);
  return html`<label class="field"
      ><span>Setup</span>
      <select name="setup" data-testid="opt-setup" @change=${onSetup}>
        <option value="basic">Basic setup for ${seats} players</option>
        ${fitting.map(([name, , label]) => html`<option value="${name}">${label} (recommended)</option>`)}
        <option value="custom" ?selected=${custom}>Choose the locations…</option>
      </select></label
    >
    ${custom
      ? html`<fieldset class="locations">
          <legend>Locations in play</legend>
          ${LOCATIONS.map(
            ([location, label]) => html`<label class="field inline"
              ><span>${label}</span>
              <select name="location-${location}" data-testid="opt-location-${location}">
                <option value="">not in play</option>
                <option value="${Side.STANDARD}">standard side</option>
                <option value="${Side.CROWN}">crown side</option>
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
      return check("auto_announce_last_card", "The referee announces a player's last card", "else forgetting costs the hand");
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
    <legend>Clock <small class="muted">0 everywhere: no clock</small></legend>
    ${number("move_seconds", "Seconds per move", "0: no limit", 86400)}
    ${number("bank_seconds", "Time bank, seconds", "0: no bank", 86400)}
    ${number("increment_seconds", "Added after each move, seconds", "with a bank", 3600)}
    ${number("no_show_after", "Missed moves before a no-show", "0: never", 1000)}
    <label class="field"
      ><span>Then</span>
      <select name="no_show" data-testid="clock-no_show">
        <option value="${NoShow.UNSPECIFIED}">the clock keeps playing for the seat</option>
        <option value="${NoShow.BOT}">a bot takes the seat over</option>
        <option value="${NoShow.FORFEIT}">the seat forfeits</option>
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
