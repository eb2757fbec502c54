// The rules sandbox: a layout menu and one menu per toggle of the chosen variant, around a board
// that restarts under the rules chosen; the line under them gives those rules as an OTN string.
// The variants, their toggles and readings all come from the catalogue, through the rules worker.

import { START_BUDGET_MS } from "./tafl-worker-client.mjs";
import { el } from "./tafl-board-view.mjs";
import { catalogueWords, t } from "./tafl-board-words.mjs";

export class Sandbox {
  constructor(container, board) {
    this.container = container;
    this.board = board;
  }

  async start() {
    const form = el("form", { class: "tafl-sandbox-form" });
    form.addEventListener("submit", (event) => event.preventDefault());
    this.variantSelect = el("select", { class: "tafl-sandbox-variant", id: `${this.board.id}-variant` });
    const label = el("label", { for: this.variantSelect.id }, t("Layout and rules: "));
    this.toggleBox = el("div", { class: "tafl-sandbox-toggles" });
    this.otn = el("code", { class: "tafl-sandbox-otn" });
    const otnLine = el("p", {}, t("Rules as an OTN string: "));
    otnLine.append(this.otn);
    const first = el("p", {});
    first.append(label, this.variantSelect);
    form.append(first, this.toggleBox);
    this.container.replaceChildren(form, otnLine);
    try {
      const reply = await this.board.request("catalogue", {}, { timeout: START_BUDGET_MS });
      this.variants = new Map(reply.variants.map((v) => [v.id, v]));
    } catch (error) {
      this.otn.textContent = t("(the catalogue could not be read: {error})", { error: error.message });
      this.container.classList.add("tafl-sandbox-live");
      return;
    }
    for (const v of this.variants.values()) this.variantSelect.append(el("option", { value: v.id }, catalogueWords(v.name)));
    const current = this.board.state?.variant;
    if (current && this.variants.has(current)) this.variantSelect.value = current;
    else if (!current && this.board.state) this.variantSelect.prepend(el("option", { value: "", selected: "" }, t("(the rules of an imported record)")));
    this.variantSelect.addEventListener("change", () => { this.drawToggles({}); this.apply(); });
    this.drawToggles(this.board.state?.applied || {});
    this.showOTN();
    this.container.classList.add("tafl-sandbox-live");  // its room is its own from now on
  }

  drawToggles(current) {
    const variant = this.variants.get(this.variantSelect.value);
    this.toggleBox.replaceChildren();
    if (!variant) return;
    for (const toggle of variant.toggles) {
      const id = `${this.board.id}-toggle-${toggle.name}`;
      const select = el("select", { id, "data-toggle": toggle.name });
      for (const reading of toggle.readings) select.append(el("option", { value: reading.value }, catalogueWords(reading.label)));
      select.value = current[toggle.name] || toggle.default;
      select.addEventListener("change", () => this.apply());
      const row = el("p", {});
      const label = catalogueWords(toggle.label);
      row.append(el("label", { for: id }, /[?:]$/.test(label) ? `${label} ` : `${label}: `), select);
      this.toggleBox.append(row);
    }
  }

  async apply() {
    const toggles = {};
    const variant = this.variants.get(this.variantSelect.value);
    if (!variant) return;
    for (const select of this.toggleBox.querySelectorAll("select[data-toggle]")) {
      const toggle = variant.toggles.find((t) => t.name === select.dataset.toggle);
      if (select.value !== toggle.default) toggles[toggle.name] = select.value;
    }
    if (await this.board.restart({ variant: variant.id, toggles, rules: "", position: "", turn: "", moves: [], cursor: null })) {
      // Another toggle may have changed the same rule point: show the readings now in force.
      for (const select of this.toggleBox.querySelectorAll("select[data-toggle]")) {
        const inForce = this.board.state.applied[select.dataset.toggle];
        if (inForce) select.value = inForce;
      }
      this.showOTN();
    }
  }

  showOTN() {
    this.otn.textContent = this.board.state ? this.board.state.rules_otn : "";
  }
}
