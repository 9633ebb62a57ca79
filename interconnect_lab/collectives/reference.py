"""Collectives performed step by step on numpy arrays, one array per rank.

Each function here runs a collective the way its algorithm moves data: in
synchronous steps, in each of which some ranks send chunks of their buffers
to others, which add them to their own (``"reduce"``) or store them
(``"copy"``). It returns a :class:`ReferenceRun` holding the result on every
rank and the log of every transfer, so the book can show the data moving and
the tests can check both the answer (a ring all-reduce really produces the
sum) and the traffic (the bytes each rank sends are what the α-β model in
:mod:`interconnect_lab.collectives` charges).

The arrays are split into chunks as evenly as possible (``numpy.array_split``);
with sizes divisible by the chunk count the byte counts equal the model's
exactly.

Examples
--------
>>> import numpy as np
>>> run = ring_all_reduce([np.arange(4), 10 * np.arange(4), 100 * np.arange(4)])
>>> run.outputs[0]
array([  0, 111, 222, 333])
>>> run.n_steps, run.transfers[0]
(4, Transfer(step=0, sender=0, receiver=1, chunks=(2,), size_bytes=8, operation='reduce'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from .._validation import check_choice, check_integer

__all__ = [
    "Transfer", "ReferenceRun",
    "ring_reduce_scatter", "ring_all_gather", "ring_all_reduce",
    "halving_doubling_all_reduce", "ring_broadcast", "direct_all_to_all",
    "IMPLEMENTATIONS", "run_collective",
]


@dataclass(frozen=True)
class Transfer:
    """One message: ``sender`` sends ``chunks`` to ``receiver`` during ``step``.

    Attributes
    ----------
    step : int
        Step number, from 0; all transfers of one step happen at once.
    sender, receiver : int
        Ranks.
    chunks : tuple of int
        Chunk indices sent (see :attr:`ReferenceRun.n_chunks`).
    size_bytes : int
        Bytes sent [B].
    operation : str
        ``"reduce"`` (the receiver adds the data to its own) or ``"copy"`` (it stores it).
    """

    step: int
    sender: int
    receiver: int
    chunks: tuple[int, ...]
    size_bytes: int
    operation: str


@dataclass(frozen=True)
class ReferenceRun:
    """The result and the step log of a collective performed on arrays.

    Attributes
    ----------
    collective : str
        The collective, as :mod:`interconnect_lab.collectives` names it.
    algorithm : str
        The algorithm, as :data:`interconnect_lab.collectives.ALGORITHMS` names it.
    outputs : tuple of numpy.ndarray
        What each rank holds at the end.
    transfers : tuple of Transfer
        Every message, in step order.
    n_chunks : int
        Chunks the data is split into.
    initial_holdings : tuple of tuple of frozenset
        ``initial_holdings[rank][chunk]``: the ranks whose input that chunk of
        ``rank``'s buffer holds at the start (empty if it holds nothing yet).
    """

    collective: str
    algorithm: str
    outputs: tuple[np.ndarray, ...]
    transfers: tuple[Transfer, ...]
    n_chunks: int
    initial_holdings: tuple[tuple[frozenset, ...], ...]

    @property
    def n_ranks(self) -> int:
        """Number of ranks."""
        return len(self.outputs)

    @property
    def n_steps(self) -> int:
        """Number of steps (0 if nothing was sent)."""
        return 1 + max((t.step for t in self.transfers), default=-1)

    def transfers_at(self, step):
        """The transfers of one step."""
        return tuple(t for t in self.transfers if t.step == step)

    def bytes_sent(self):
        """Bytes each rank sends in the whole collective [B], as an integer array."""
        sent = np.zeros(self.n_ranks, dtype=np.int64)
        for t in self.transfers:
            sent[t.sender] += t.size_bytes
        return sent

    def bytes_received(self):
        """Bytes each rank receives in the whole collective [B], as an integer array."""
        received = np.zeros(self.n_ranks, dtype=np.int64)
        for t in self.transfers:
            received[t.receiver] += t.size_bytes
        return received

    def holdings(self):
        """Whose input each chunk of each rank's buffer holds, before and after every step.

        Returns
        -------
        list of list of list of frozenset
            ``holdings()[s][rank][chunk]`` after ``s`` steps (``s = 0`` is the
            start): the set of ranks whose input that chunk has summed or copied.
        """
        state = [list(row) for row in self.initial_holdings]
        history = [[list(row) for row in state]]
        for step in range(self.n_steps):
            moves = self.transfers_at(step)
            snapshot = [list(row) for row in state]
            for t in moves:
                for chunk in t.chunks:
                    if t.operation == "reduce":
                        state[t.receiver][chunk] = state[t.receiver][chunk] | snapshot[t.sender][chunk]
                    else:
                        state[t.receiver][chunk] = snapshot[t.sender][chunk]
            history.append([list(row) for row in state])
        return history

    def contribution_counts(self):
        """How many ranks' inputs each chunk holds, after every step.

        Returns
        -------
        numpy.ndarray
            Integer array of shape ``(n_steps + 1, n_ranks, n_chunks)``.

        Examples
        --------
        >>> run = ring_all_reduce([np.ones(3)] * 3)
        >>> run.contribution_counts()[-1]
        array([[3, 3, 3],
               [3, 3, 3],
               [3, 3, 3]])
        """
        return np.array([[[len(s) for s in row] for row in step] for step in self.holdings()],
                        dtype=int)


# The engine: buffers split into chunks, synchronous steps, a log ----------------

def _bounds(length, parts):
    sizes = [length // parts + (1 if i < length % parts else 0) for i in range(parts)]
    edges = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    return list(zip(edges[:-1], edges[1:]))


class _Exchange:
    """Per-rank buffers split into chunks; runs steps and logs every transfer."""

    def __init__(self, buffers, n_chunks):
        self.buffers = [np.array(b) for b in buffers]
        self.bounds = _bounds(self.buffers[0].size, n_chunks)
        self.itemsize = self.buffers[0].itemsize
        self.transfers = []
        self.step_index = 0

    def chunk(self, rank, chunk):
        start, stop = self.bounds[chunk]
        return self.buffers[rank][start:stop]

    def step(self, moves):
        """Run one step: ``moves`` is a list of (sender, receiver, chunks, operation)."""
        payloads = [[self.chunk(sender, c).copy() for c in chunks]
                    for sender, _, chunks, _ in moves]
        for (sender, receiver, chunks, operation), data in zip(moves, payloads):
            for c, values in zip(chunks, data):
                target = self.chunk(receiver, c)
                if operation == "reduce":
                    target += values
                else:
                    target[...] = values
            size = sum(self.bounds[c][1] - self.bounds[c][0] for c in chunks) * self.itemsize
            self.transfers.append(Transfer(step=self.step_index, sender=sender, receiver=receiver,
                                           chunks=tuple(int(c) for c in chunks),
                                           size_bytes=int(size), operation=operation))
        if moves:
            self.step_index += 1


def _check_inputs(inputs, name="inputs"):
    try:
        arrays = [np.asarray(a) for a in inputs]
    except TypeError:
        raise TypeError(f"{name} must be a sequence of arrays, one per rank, got {inputs!r}") from None
    if not arrays:
        raise ValueError(f"{name} must hold one array per rank: at least 1, got 0")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"{name} must all have the same shape, got shapes {sorted(shapes)}")
    if not all(np.issubdtype(a.dtype, np.number) for a in arrays):
        raise TypeError(f"{name} must be numeric arrays, got dtypes {[a.dtype.name for a in arrays]}")
    dtype = np.result_type(*arrays)
    return [a.astype(dtype).ravel() for a in arrays], arrays[0].shape


def _every_chunk(n_ranks, n_chunks):
    return tuple(tuple(frozenset({rank}) for _ in range(n_chunks)) for rank in range(n_ranks))


# Ring -------------------------------------------------------------------------

def _ring_reduce_scatter_steps(exchange, n):
    # At step s rank r sends chunk (r - s - 1) mod n on to r + 1, which adds it to
    # its own; after n - 1 steps rank r holds the complete sum of chunk r.
    for s in range(n - 1):
        exchange.step([(r, (r + 1) % n, ((r - s - 1) % n,), "reduce") for r in range(n)])


def _ring_all_gather_steps(exchange, n):
    # At step s rank r forwards chunk (r - s) mod n, starting with its own.
    for s in range(n - 1):
        exchange.step([(r, (r + 1) % n, ((r - s) % n,), "copy") for r in range(n)])


def ring_reduce_scatter(inputs):
    """Reduce-scatter on a ring: rank r ends with the sum of chunk r of every rank's array.

    n − 1 steps; in each, every rank adds the chunk it receives to its own and
    passes the partial sum on. Each rank sends (n−1)/n of its array.

    Parameters
    ----------
    inputs : sequence of array_like
        One array per rank, all of the same shape.

    Returns
    -------
    ReferenceRun
        ``outputs[r]`` is chunk r (of the flattened arrays) of the sum.

    Examples
    --------
    >>> run = ring_reduce_scatter([np.arange(6), np.arange(6)])
    >>> [o.tolist() for o in run.outputs], run.bytes_sent().tolist()
    ([[0, 2, 4], [6, 8, 10]], [24, 24])
    """
    arrays, _ = _check_inputs(inputs)
    n = len(arrays)
    exchange = _Exchange(arrays, n)
    _ring_reduce_scatter_steps(exchange, n)
    outputs = tuple(exchange.chunk(r, r).copy() for r in range(n))
    return ReferenceRun("reduce_scatter", "ring", outputs, tuple(exchange.transfers), n,
                        _every_chunk(n, n))


def ring_all_gather(inputs):
    """All-gather on a ring: every rank ends with every rank's array, in rank order.

    n − 1 steps; in each, every rank passes on the block it received last. Each
    rank sends (n−1)/n of the gathered output.

    Parameters
    ----------
    inputs : sequence of array_like
        One block per rank, all of the same shape.

    Returns
    -------
    ReferenceRun
        ``outputs[r]`` is the flattened blocks of ranks 0, 1, …, n−1.

    Examples
    --------
    >>> ring_all_gather([[1, 2], [3, 4], [5, 6]]).outputs[2]
    array([1, 2, 3, 4, 5, 6])
    """
    blocks, _ = _check_inputs(inputs)
    n = len(blocks)
    length = blocks[0].size
    buffers = []
    for r in range(n):
        buffer = np.zeros(n * length, dtype=blocks[0].dtype)
        buffer[r * length:(r + 1) * length] = blocks[r]
        buffers.append(buffer)
    exchange = _Exchange(buffers, n)
    exchange.bounds = [(r * length, (r + 1) * length) for r in range(n)]
    _ring_all_gather_steps(exchange, n)
    holdings = tuple(tuple(frozenset({r}) if c == r else frozenset() for c in range(n))
                     for r in range(n))
    return ReferenceRun("all_gather", "ring", tuple(b.copy() for b in exchange.buffers),
                        tuple(exchange.transfers), n, holdings)


def ring_all_reduce(inputs):
    """All-reduce on a ring: a ring reduce-scatter, then a ring all-gather.

    2(n − 1) steps. Each rank sends 2(n−1)/n of its array, the least any
    all-reduce built from point-to-point messages can send (Patarasuk and Yuan
    2009).

    Parameters
    ----------
    inputs : sequence of array_like
        One array per rank, all of the same shape.

    Returns
    -------
    ReferenceRun
        ``outputs[r]`` is the element-wise sum, in the input shape.

    References
    ----------
    P. Patarasuk, X. Yuan, JPDC 69(2), 2009. https://doi.org/10.1016/j.jpdc.2008.09.002

    Examples
    --------
    >>> run = ring_all_reduce([np.ones(8, dtype=np.int32)] * 4)
    >>> run.outputs[3], run.bytes_sent().tolist()
    (array([4, 4, 4, 4, 4, 4, 4, 4], dtype=int32), [48, 48, 48, 48])
    """
    arrays, shape = _check_inputs(inputs)
    n = len(arrays)
    exchange = _Exchange(arrays, n)
    _ring_reduce_scatter_steps(exchange, n)
    # Rank r now holds the full sum of chunk r; the all-gather starts from there.
    _ring_all_gather_steps(exchange, n)
    outputs = tuple(b.reshape(shape).copy() for b in exchange.buffers)
    return ReferenceRun("all_reduce", "ring", outputs, tuple(exchange.transfers), n,
                        _every_chunk(n, n))


# Recursive halving and doubling ----------------------------------------------------

def halving_doubling_all_reduce(inputs):
    """All-reduce by recursive halving (reduce-scatter) then recursive doubling (all-gather).

    With p = 2^⌊log₂ n⌋: in step k of the halving, each rank exchanges half of
    the range it still reduces with the partner whose rank differs in one bit;
    the doubling retraces the steps, gathering. 2 log₂ p steps, (p−1)/p of the
    array sent in each sweep. When n is not a power of two, the first
    2(n − p) ranks pair up: the even one hands its array to the odd one first
    and receives the result back at the end (two more steps, one more array).

    Parameters
    ----------
    inputs : sequence of array_like
        One array per rank, all of the same shape.

    Returns
    -------
    ReferenceRun
        ``outputs[r]`` is the element-wise sum, in the input shape; the data is
        split into p chunks.

    References
    ----------
    R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of Collective
    Communication Operations in MPICH", IJHPCA 19(1), 2005, §4.4.
    https://doi.org/10.1177/1094342005051521

    Examples
    --------
    >>> run = halving_doubling_all_reduce([np.arange(4)] * 4)
    >>> run.outputs[1], run.n_steps, run.bytes_sent().tolist()
    (array([ 0,  4,  8, 12]), 4, [48, 48, 48, 48])
    """
    arrays, shape = _check_inputs(inputs)
    n = len(arrays)
    p = 1 << (n.bit_length() - 1)
    extra = n - p
    exchange = _Exchange(arrays, p)
    everything = tuple(range(p))
    if extra:
        exchange.step([(2 * i, 2 * i + 1, everything, "reduce") for i in range(extra)])
    # Ranks that take part in the power-of-two core, and their virtual numbers 0..p-1.
    core = [2 * i + 1 for i in range(extra)] + list(range(2 * extra, n))
    ranges = {v: (0, p) for v in range(p)}
    distance = p // 2
    while distance >= 1:
        moves = []
        new_ranges = {}
        for v in range(p):
            low, high = ranges[v]
            middle = (low + high) // 2
            keep, give = ((middle, high), (low, middle)) if v & distance else ((low, middle), (middle, high))
            moves.append((core[v], core[v ^ distance], tuple(range(*give)), "reduce"))
            new_ranges[v] = keep
        exchange.step(moves)
        ranges = new_ranges
        distance //= 2
    distance = 1
    while distance < p:
        moves = [(core[v], core[v ^ distance], tuple(range(*ranges[v])), "copy") for v in range(p)]
        exchange.step(moves)
        ranges = {v: (min(ranges[v][0], ranges[v ^ distance][0]),
                      max(ranges[v][1], ranges[v ^ distance][1])) for v in range(p)}
        distance *= 2
    if extra:
        exchange.step([(2 * i + 1, 2 * i, everything, "copy") for i in range(extra)])
    outputs = tuple(b.reshape(shape).copy() for b in exchange.buffers)
    return ReferenceRun("all_reduce", "halving_doubling", outputs, tuple(exchange.transfers), p,
                        _every_chunk(n, p))


# Broadcast and all-to-all ----------------------------------------------------------

def ring_broadcast(inputs, root=0, pipeline_chunks=1):
    """Broadcast along a chain from ``root``, pipelined in ``pipeline_chunks`` pieces.

    Rank root+i forwards piece j to root+i+1 at step i + j, so n − 2 + m steps
    for m pieces; every rank but the last in the chain sends the whole array
    once.

    Parameters
    ----------
    inputs : sequence of array_like
        One array per rank, all of the same shape; only the root's is sent.
    root : int
        The rank that holds the data, in [0, n).
    pipeline_chunks : int
        Pieces the array is cut into, >= 1.

    Returns
    -------
    ReferenceRun
        ``outputs[r]`` is the root's array on every rank.

    Examples
    --------
    >>> run = ring_broadcast([[0, 0], [7, 8], [0, 0]], root=1)
    >>> [o.tolist() for o in run.outputs], [(t.sender, t.receiver) for t in run.transfers]
    ([[7, 8], [7, 8], [7, 8]], [(1, 2), (2, 0)])
    """
    arrays, shape = _check_inputs(inputs)
    n = len(arrays)
    root = check_integer("root", root, minimum=0, maximum=n - 1)
    pieces = check_integer("pipeline_chunks", pipeline_chunks, minimum=1)
    exchange = _Exchange(arrays, pieces)
    chain = [(root + i) % n for i in range(n)]
    for step in range(n - 2 + pieces if n > 1 else 0):
        moves = [(chain[i], chain[i + 1], (step - i,), "copy")
                 for i in range(n - 1) if 0 <= step - i < pieces]
        exchange.step(moves)
    outputs = tuple(b.reshape(shape).copy() for b in exchange.buffers)
    holdings = tuple(tuple(frozenset({root}) if r == root else frozenset() for _ in range(pieces))
                     for r in range(n))
    return ReferenceRun("broadcast", "ring", outputs, tuple(exchange.transfers), pieces, holdings)


def direct_all_to_all(inputs):
    """All-to-all with direct sends: block j of rank i goes to rank j, all in one step.

    Parameters
    ----------
    inputs : sequence of array_like
        One array per rank, all of the same shape; each is split into n blocks.

    Returns
    -------
    ReferenceRun
        ``outputs[j]`` is block j of ranks 0, 1, …, n−1, flattened. Chunk
        ``i * n + j`` is block j of rank i.

    Examples
    --------
    >>> run = direct_all_to_all([[0, 1], [10, 11]])
    >>> [o.tolist() for o in run.outputs], run.bytes_sent().tolist()
    ([[0, 10], [1, 11]], [8, 8])
    """
    arrays, _ = _check_inputs(inputs)
    n = len(arrays)
    length = arrays[0].size
    block_bounds = _bounds(length, n)
    # One buffer per rank holding every (source, block) slot: n * length elements.
    buffers = []
    for r in range(n):
        buffer = np.zeros(n * length, dtype=arrays[0].dtype)
        buffer[r * length:(r + 1) * length] = arrays[r]
        buffers.append(buffer)
    exchange = _Exchange(buffers, n * n)
    exchange.bounds = [(i * length + start, i * length + stop)
                       for i in range(n) for start, stop in block_bounds]
    exchange.step([(i, j, (i * n + j,), "copy") for i in range(n) for j in range(n) if i != j])
    outputs = tuple(np.concatenate([exchange.chunk(j, i * n + j) for i in range(n)])
                    for j in range(n))
    holdings = tuple(tuple(frozenset({r}) if c // n == r else frozenset() for c in range(n * n))
                     for r in range(n))
    return ReferenceRun("all_to_all", "direct", outputs, tuple(exchange.transfers), n * n, holdings)


#: The implementations, by (collective, algorithm) as the cost model names them.
IMPLEMENTATIONS: MappingProxyType[tuple[str, str], Callable] = MappingProxyType({
    ("all_reduce", "ring"): ring_all_reduce,
    ("all_reduce", "halving_doubling"): halving_doubling_all_reduce,
    ("reduce_scatter", "ring"): ring_reduce_scatter,
    ("all_gather", "ring"): ring_all_gather,
    ("broadcast", "ring"): ring_broadcast,
    ("all_to_all", "direct"): direct_all_to_all,
})


def run_collective(collective, inputs, algorithm="ring", **options):
    """Perform ``collective`` with ``algorithm`` on ``inputs``, one array per rank.

    Parameters
    ----------
    collective : str
        ``"all_reduce"``, ``"reduce_scatter"``, ``"all_gather"``, ``"broadcast"``
        or ``"all_to_all"``.
    inputs : sequence of array_like
        One array per rank.
    algorithm : str
        An algorithm with a reference implementation for ``collective``
        (see :data:`IMPLEMENTATIONS`).
    **options
        Passed on (``root``, ``pipeline_chunks`` for the broadcast).

    Returns
    -------
    ReferenceRun

    Examples
    --------
    >>> run_collective("all_reduce", [[1, 2], [3, 4]], "halving_doubling").outputs[0]
    array([4, 6])
    """
    collectives = sorted({c for c, _ in IMPLEMENTATIONS})
    check_choice("collective", collective, collectives)
    algorithms = [a for c, a in IMPLEMENTATIONS if c == collective]
    if algorithm not in algorithms:
        listed = ", ".join(repr(a) for a in algorithms)
        raise ValueError(f"unknown algorithm {algorithm!r} for {collective!r}; "
                         f"valid algorithms are: {listed}")
    return IMPLEMENTATIONS[(collective, algorithm)](inputs, **options)
