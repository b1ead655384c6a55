// The page's words in English or Spanish, from the service's catalogue (/play/texts.json).
let catalogue = { en: {} };
export let language = "en";

export async function loadTexts() {
  const response = await fetch("/play/texts.json");
  catalogue = await response.json();
}

export function preferredLanguage() {
  for (const tag of navigator.languages || [navigator.language]) {
    const primary = tag.toLowerCase().split("-")[0];
    if (primary in catalogue) return primary;
  }
  return "en";
}

// Switches the page's language: every element with data-text says its text anew.
export function setLanguage(wanted) {
  language = wanted in catalogue ? wanted : "en";
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll("[data-text]")) {
    element.textContent = say(element.dataset.text);
  }
}

export function say(key, params = {}) {
  const template = catalogue[language][key] ?? catalogue.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}
