/**
 * The "details" toggle: what a developer wants and a player does not (versions, the API
 * address, reason codes) is drawn with class `dev-detail`, hidden unless the toggle is on.
 * The choice is kept in localStorage; the class `show-details` on <html> shows them.
 */
const STORED = "referee.console.details";

function stored(): boolean {
  try {
    return window.localStorage.getItem(STORED) === "1";
  } catch {
    return false;
  }
}

let shown = stored();
document.documentElement.classList.toggle("show-details", shown);

/** Whether developer details are shown. */
export function detailsShown(): boolean {
  return shown;
}

/** Show or hide developer details on every page (kept for later visits). */
export function showDetails(on: boolean): void {
  shown = on;
  document.documentElement.classList.toggle("show-details", on);
  try {
    window.localStorage.setItem(STORED, on ? "1" : "0");
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}
