//! The cores a planned kernel runs on: the `threads` tunable, a rayon pool of that many threads
//! built at plan time (never rayon's global pool, whose size the process decides), and the one
//! way kernels share out work: an output cut into chunks, each with its own scratch state.

use dspbench_core::{Error, Params};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// Most threads a plan accepts: far beyond any core count, low enough to catch a typo.
const MAX_THREADS: usize = 1024;

/// Chunks per thread when work is shared out: a few, so a core slowed by another process hands
/// its remaining chunks to the others instead of holding up the whole run.
const CHUNKS_PER_THREAD: usize = 4;

/// The threads of one plan.
pub(crate) struct Workers {
    threads: usize,
    /// `None` for one thread: the work runs on the caller's thread, with no hand-over to a pool.
    pool: Option<ThreadPool>,
}

impl Workers {
    /// The pool the `threads` tunable asks for; every core the process may use when it is not given.
    pub(crate) fn from_tunables(tunables: &Params) -> Result<Workers, Error> {
        let threads = match tunables.positive_opt("threads")? {
            Some(n) if n > MAX_THREADS => {
                return Err(Error::input(format!("parameter `threads` must be at most {MAX_THREADS}, got {n}")))
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        Workers::new(threads)
    }

    pub(crate) fn new(threads: usize) -> Result<Workers, Error> {
        let pool = if threads > 1 {
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("dspbench-simd-{i}"))
                .build()
                .map_err(|e| Error::device(format!("cannot start {threads} threads: {e}")))?;
            Some(pool)
        } else {
            None
        };
        Ok(Workers { threads, pool })
    }

    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// How many chunks to cut `items` units of work into: `CHUNKS_PER_THREAD` per thread (one
    /// on one thread), but none smaller than `min_items` (each chunk has a fixed cost: halo rows,
    /// a running sum to start, a scratch buffer), and at least one.
    pub(crate) fn chunks(&self, items: usize, min_items: usize) -> usize {
        if self.threads == 1 {
            return 1;
        }
        (self.threads * CHUNKS_PER_THREAD).min(items / min_items.max(1)).max(1)
    }

    /// Calls `f(index, chunk)` for every `chunk_len`-long chunk of `data` (the last may be
    /// shorter), on the pool's threads.
    pub(crate) fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, f: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Send + Sync,
    {
        match &self.pool {
            None => data.chunks_mut(chunk_len).enumerate().for_each(|(i, chunk)| f(i, chunk)),
            Some(pool) => {
                pool.install(|| data.par_chunks_mut(chunk_len).enumerate().for_each(|(i, chunk)| f(i, chunk)))
            }
        }
    }

    /// Calls `f(index, chunk, state)` for every `chunk_len`-long chunk of `data` (the last may be
    /// shorter) and the state of the same index, on the pool's threads. `states` holds one state
    /// per chunk, so no chunk ever waits for or allocates scratch.
    pub(crate) fn for_each_chunk_with<T, S, F>(&self, data: &mut [T], chunk_len: usize, states: &mut [S], f: F)
    where
        T: Send,
        S: Send,
        F: Fn(usize, &mut [T], &mut S) + Send + Sync,
    {
        debug_assert_eq!(data.len().div_ceil(chunk_len.max(1)), states.len(), "one state per chunk");
        match &self.pool {
            None => {
                data.chunks_mut(chunk_len).zip(states).enumerate().for_each(|(i, (chunk, state))| f(i, chunk, state))
            }
            Some(pool) => pool.install(|| {
                data.par_chunks_mut(chunk_len)
                    .zip(states.par_iter_mut())
                    .enumerate()
                    .for_each(|(i, (chunk, state))| f(i, chunk, state))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_default_to_the_cores_and_are_checked() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(Workers::from_tunables(&Params::new()).unwrap().threads(), cores);
        assert_eq!(Workers::from_tunables(&Params::new().with("threads", 3usize)).unwrap().threads(), 3);
        for bad in [Params::new().with("threads", 0i64), Params::new().with("threads", "all")] {
            assert!(matches!(Workers::from_tunables(&bad), Err(Error::Input(msg)) if msg.contains("`threads`")));
        }
        let huge = Params::new().with("threads", MAX_THREADS + 1);
        assert!(matches!(Workers::from_tunables(&huge), Err(Error::Input(_))));
    }

    #[test]
    fn chunks_respect_the_minimum_and_one_thread_takes_one() {
        assert_eq!(Workers::new(1).unwrap().chunks(1000, 1), 1);
        let two = Workers::new(2).unwrap();
        assert_eq!(two.chunks(1000, 1), 2 * CHUNKS_PER_THREAD);
        assert_eq!(two.chunks(1000, 300), 3);
        assert_eq!(two.chunks(10, 300), 1);
    }

    #[test]
    fn every_chunk_meets_its_own_state() {
        for threads in [1, 3] {
            let workers = Workers::new(threads).unwrap();
            let mut data = vec![0usize; 10];
            let mut states = vec![0usize; 4];
            workers.for_each_chunk_with(&mut data, 3, &mut states, |i, chunk, state| {
                chunk.fill(i);
                *state = chunk.len();
            });
            assert_eq!(data, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]);
            assert_eq!(states, [3, 3, 3, 1]);
        }
    }
}
