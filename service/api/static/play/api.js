// The public API, as this page uses it: one game, one seat token, problem+json refusals.
import { language } from "./texts.js";

export class Refused extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function call(method, path, { body, token, headers = {} } = {}) {
  const sent = { "Accept-Language": language, ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers: sent,
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Refused(response.status, data);
  return { data, etag: response.headers.get("ETag") };
}

export class GameClient {
  async create(name, computerName, level) {
    const { data, etag } = await call("POST", "/v1/games", { body: {
      seats: [{ kind: "human", name }, { kind: "computer", name: computerName, level }],
      options: { counting: "auto", target: 121 } } });
    this.gameId = data.game_id;
    this.token = data.token;
    return { game: data.game, etag };
  }

  async read() {
    const { data, etag } = await call("GET", `/v1/games/${this.gameId}`, { token: this.token });
    return { game: data, etag };
  }

  // One action, on the version last seen (If-Match), safe to retry (Idempotency-Key).
  async act(action, etag) {
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    if (etag) headers["If-Match"] = etag;
    const { data, etag: next } = await call("POST", `/v1/games/${this.gameId}/actions`,
                                            { body: action, token: this.token, headers });
    return { game: data, etag: next };
  }

  async streamTicket() {
    const { data } = await call("POST", `/v1/games/${this.gameId}/stream-tickets`,
                                { token: this.token });
    return data.ticket;
  }
}

// The count of a show as a player says it, in the page's language.
export async function showSummary(hand, starter, crib) {
  const { data } = await call("POST", "/v1/show/score", { body: { hand, starter, crib } });
  return data.summary;
}

export async function computerLevels() {
  const { data } = await call("GET", "/openapi.json");
  return data.components.schemas.SeatSpec.properties.level.enum;
}
