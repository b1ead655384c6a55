"""The sender's bounds: a receiver that answers a byte at a time is cut off once the exchange has
taken `answer_timeout` in all, though each byte comes well within `read_timeout`."""

from __future__ import annotations

import itertools
import socket
import threading

from service.webhooks.sender import SendPolicy, post

ANSWER = b"HTTP/1.1 200 OK"  # a status line that never ends
TRICKLE = 0.2  # seconds between its bytes: each well within the read timeout


class TricklingReceiver:
    """Answers ANSWER over and over, a byte every TRICKLE seconds."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.listener.getsockname()[1]

    def _serve(self) -> None:
        connection, _ = self.listener.accept()
        with connection:
            for byte in itertools.cycle(ANSWER):
                if self.stopped.wait(TRICKLE):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return  # the sender gave up

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


def test_a_receiver_trickling_its_answer_is_cut_off_at_the_answer_timeout():
    receiver = TricklingReceiver()
    policy = SendPolicy(allow_private=True, read_timeout=1.0, answer_timeout=1.5)
    outcomes = []
    sending = threading.Thread(target=lambda: outcomes.append(post(
        f"http://127.0.0.1:{receiver.port}/hook", b"{}", {}, policy)))
    sending.start()
    sending.join(30)  # without the cut-off it would wait for hours
    receiver.close()
    assert not sending.is_alive()
    assert outcomes[0].status is None
    assert outcomes[0].error == "send: no answer within 1.5 s"
