// A seat's event stream: Server-Sent Events opened with a stream ticket (the token never goes
// in a URL). A ticket works once, so each reconnection asks for a new one and resumes after
// the last event seen.
const RETRY_MILLISECONDS = 1000;

export function follow(client, handlers) {
  let lastEvent = 0;
  let source = null;
  let stopped = false;

  async function open() {
    if (stopped) return;
    let ticket;
    try {
      ticket = await client.streamTicket();
    } catch (error) {
      handlers.lost(error);
      setTimeout(open, RETRY_MILLISECONDS);
      return;
    }
    const query = new URLSearchParams({ ticket, after: String(lastEvent) });
    source = new EventSource(`/v1/games/${client.gameId}/stream?${query}`);
    source.addEventListener("snapshot", (message) => handlers.snapshot(JSON.parse(message.data)));
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      lastEvent = event.number;
      handlers.event(event);
    };
    source.addEventListener("state", (message) => handlers.state(JSON.parse(message.data)));
    source.addEventListener("end", () => { stopped = true; source.close(); });
    source.onerror = () => {
      source.close();
      if (stopped) return;
      handlers.lost(null);
      setTimeout(open, RETRY_MILLISECONDS);
    };
  }

  open();
  return { stop() { stopped = true; if (source) source.close(); } };
}
