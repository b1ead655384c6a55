from collections.abc import Sequence

def set_tables(ranks: Sequence[int], values: Sequence[int]) -> None: ...
def search(state: tuple[int, ...], belief: tuple[object, ...], mix: Sequence[float],
           own_caution: float, deals: int, hand: Sequence[int], playable: Sequence[int],
           pile: Sequence[int], count: int, side_of: Sequence[int], needs: Sequence[int],
           exact_finish: bool, record: bool
           ) -> tuple[tuple[int, ...], list[float], list[float], list[int] | None]: ...
