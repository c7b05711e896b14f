//! The cores a planned kernel runs on: the `threads` tunable, a rayon pool of that many threads
//! built at plan time (never rayon's global pool, whose size the process decides), and the one
//! way kernels share out work: an output cut into chunks, each with its own scratch state.

use dspbench_core::{Error, Params};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Most threads a plan accepts: far beyond any core count, low enough to catch a typo.
const MAX_THREADS: usize = 1024;

/// Chunks per thread when work is shared out: a few, so a core slowed by another process hands
/// its remaining chunks to the others instead of holding up the whole run.
const CHUNKS_PER_THREAD: usize = 4;

/// The threads of one plan.
pub(crate) struct Workers {
    threads: usize,
    /// `None` for one thread: the work runs on the caller's thread, with no hand-over to a pool.
    pool: Option<Arc<Pool>>,
}

/// A rayon pool and the CPU each of its threads is bound to (empty when unbound).
struct Pool {
    pool: ThreadPool,
    /// Whether the thread that built the pool is its thread 0 (see [`Pool::start`]); that thread
    /// keeps its own placement, so `cpus[0]` is then only the CPU left free for it.
    caller_joined: bool,
    cpus: Vec<usize>,
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

    /// `threads` workers from the process's one pool of that size. One pool per size, shared by
    /// every plan, because plans are measured side by side in rounds: a pool per plan left idle
    /// workers of one plan spinning on the CPUs the next plan's workers needed, and on a 2-core VM
    /// a call then waited whole scheduler ticks (4 ms) for a CPU.
    pub(crate) fn new(threads: usize) -> Result<Workers, Error> {
        if threads == 1 {
            return Ok(Workers { threads, pool: None });
        }
        static POOLS: OnceLock<Mutex<HashMap<usize, Arc<Pool>>>> = OnceLock::new();
        let mut pools = POOLS.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let pool = match pools.get(&threads) {
            Some(pool) => pool.clone(),
            None => {
                let pool = Arc::new(Pool::start(threads)?);
                pools.insert(threads, pool.clone());
                pool
            }
        };
        Ok(Workers { threads, pool: Some(pool) })
    }

    /// How the threads are placed, for the records: `cpus 0,1`, `caller + cpus 1` (the calling
    /// thread is one of the workers), `unbound` or `caller + unbound`.
    pub(crate) fn placement(&self) -> String {
        let Some(pool) = &self.pool else { return "caller's thread".to_string() };
        let caller = if pool.caller_joined { "caller + " } else { "" };
        let bound = &pool.cpus[usize::from(pool.caller_joined).min(pool.cpus.len())..];
        if pool.cpus.is_empty() {
            format!("{caller}unbound")
        } else {
            format!("{caller}cpus {}", bound.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
        }
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
        let mut states = vec![(); data.len().div_ceil(chunk_len.max(1))];
        self.for_each_chunk_with(data, chunk_len, &mut states, |i, chunk, ()| f(i, chunk));
    }

    /// Calls `f(index, chunk, state)` for every `chunk_len`-long chunk of `data` (the last may be
    /// shorter) and the state of the same index, on the pool's threads. `states` holds one state
    /// per chunk, so no chunk ever waits for or allocates scratch.
    ///
    /// Each thread owns a fixed run of the chunks ([`owned_first`]), so that from one call to the
    /// next a chunk's data stays in the cache of the core that used it last, where rayon's own split
    /// hands a chunk to whichever thread comes first: a 64 x 1024 FFT on two threads of a 2-core VM
    /// ran 2-15% faster so (docs/findings.md, session 39).
    pub(crate) fn for_each_chunk_with<T, S, F>(&self, data: &mut [T], chunk_len: usize, states: &mut [S], f: F)
    where
        T: Send,
        S: Send,
        F: Fn(usize, &mut [T], &mut S) + Send + Sync,
    {
        debug_assert_eq!(data.len().div_ceil(chunk_len.max(1)), states.len(), "one state per chunk");
        let count = states.len();
        let chunks = data.chunks_mut(chunk_len.max(1)).zip(states).enumerate();
        match &self.pool {
            // One chunk gains nothing from a hand-over to another thread, which costs tens of
            // microseconds on a VM (a 65536-point FFT on the pool's thread: 0.20 ms against 0.15).
            Some(pool) if count > 1 => {
                let chunks: Vec<_> = chunks.map(|(i, (chunk, state))| Mutex::new(Some((i, chunk, state)))).collect();
                let threads = self.threads;
                // One task a thread, each run by whichever thread picks it up: a thread that starts late
                // (a neighbour had its core) finds its chunks taken by the others, and nothing waits
                // for it to start.
                pool.pool.install(|| {
                    (0..threads).into_par_iter().for_each(|_| {
                        let me = rayon::current_thread_index().unwrap_or(0);
                        for k in owned_first(me, threads, chunks.len()) {
                            let taken = chunks[k].lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
                            if let Some((i, chunk, state)) = taken {
                                f(i, chunk, state);
                            }
                        }
                    })
                })
            }
            _ => chunks.for_each(|(i, (chunk, state))| f(i, chunk, state)),
        }
    }
}

/// The order in which thread `me` of `threads` takes `chunks` chunks: its own run first (thread
/// t owns the t-th of `threads` equal runs, in order), then the others' runs from their far ends,
/// so that a thread helping out takes the chunks their owner would come to last.
fn owned_first(me: usize, threads: usize, chunks: usize) -> impl Iterator<Item = usize> {
    let run = move |t: usize| (t * chunks / threads)..((t + 1) * chunks / threads);
    let others = (1..threads).map(move |d| (me + d) % threads);
    run(me).chain(others.flat_map(move |t| run(t).rev()))
}

impl Pool {
    /// `threads` workers, the thread that builds the pool (the one that plans, and then runs, a
    /// kernel) among them, the others each bound to its own CPU of those this process may use
    /// (round robin when there are more threads than CPUs).
    ///
    /// The building thread joins so that a call does its share of the work instead of handing
    /// the whole of it to the pool and sleeping until it is done: that hand-over and wake-up cost
    /// 20-40 us a call on a 2-core VM, and a 64 x 1024 FFT (60-90 us on one thread) ran slower on
    /// two. A thread already in a pool cannot join a second one; the pool then has its own threads
    /// only, as does a pool whose builder has gone (its share is then taken by the others).
    /// Unbound, the scheduler could wake two workers on one CPU and keep them there: measured on a
    /// 2-core VM, whole plans then ran at half speed.
    fn start(threads: usize) -> Result<Pool, Error> {
        let allowed = core_affinity::get_core_ids().unwrap_or_default();
        let cpus: Vec<usize> =
            if allowed.is_empty() { Vec::new() } else { (0..threads).map(|i| allowed[i % allowed.len()].id).collect() };
        let caller_joined = rayon::current_thread_index().is_none();
        let bind = cpus.clone();
        let builder = ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("dspbench-simd-{i}"))
            .start_handler(move |i| {
                if let Some(&id) = bind.get(i) {
                    // Best effort: where binding is refused the thread runs unbound, as it would anyway.
                    core_affinity::set_for_current(core_affinity::CoreId { id });
                }
            });
        let builder = if caller_joined { builder.use_current_thread() } else { builder };
        let pool = builder.build().map_err(|e| Error::device(format!("cannot start {threads} threads: {e}")))?;
        Ok(Pool { pool, caller_joined, cpus })
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
    fn pool_threads_are_bound_one_per_cpu() {
        let cpus = core_affinity::get_core_ids().unwrap_or_default().len();
        let workers = Workers::new(3).unwrap();
        if cpus == 0 {
            assert_eq!(workers.placement(), "unbound");
            return;
        }
        let pool = workers.pool.as_ref().unwrap();
        assert_eq!(pool.cpus.len(), 3);
        assert_eq!(pool.cpus[0] == pool.cpus[1], cpus == 1, "distinct CPUs while there are enough");
        assert!(Arc::ptr_eq(pool, Workers::new(3).unwrap().pool.as_ref().unwrap()), "one pool per size");
        let expected = if pool.caller_joined {
            format!("caller + cpus {},{}", pool.cpus[1], pool.cpus[2])
        } else {
            format!("cpus {},{},{}", pool.cpus[0], pool.cpus[1], pool.cpus[2])
        };
        assert_eq!(workers.placement(), expected);
        assert_eq!(Workers::new(1).unwrap().placement(), "caller's thread");
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
    fn each_thread_takes_its_own_run_first_and_every_chunk_once() {
        assert_eq!(owned_first(0, 2, 8).collect::<Vec<_>>(), [0, 1, 2, 3, 7, 6, 5, 4]);
        assert_eq!(owned_first(1, 2, 8).collect::<Vec<_>>(), [4, 5, 6, 7, 3, 2, 1, 0]);
        assert_eq!(owned_first(2, 3, 4).collect::<Vec<_>>(), [2, 3, 0, 1]);
        for (threads, chunks) in [(1, 1), (2, 1), (3, 7), (4, 16), (8, 3)] {
            for me in 0..threads {
                let mut order: Vec<usize> = owned_first(me, threads, chunks).collect();
                order.sort_unstable();
                assert_eq!(order, (0..chunks).collect::<Vec<_>>(), "thread {me} of {threads}, {chunks} chunks");
            }
        }
    }

    #[test]
    fn the_thread_that_plans_works_beside_the_pool() {
        // A size no other test uses, so that this test's thread builds the pool.
        let workers = Workers::new(6).unwrap();
        assert!(workers.pool.as_ref().unwrap().caller_joined);
        let me = std::thread::current().id();
        let ran_here = Mutex::new(Vec::new());
        let mut data = vec![0u8; 12];
        workers.for_each_chunk(&mut data, 1, |i, _| {
            // Long enough that the caller reaches its own chunks before the pool could take them.
            std::thread::sleep(std::time::Duration::from_millis(2));
            ran_here.lock().unwrap().push((i, std::thread::current().id() == me));
        });
        let ran_here = ran_here.into_inner().unwrap();
        assert_eq!(ran_here.len(), 12);
        assert!(ran_here.iter().any(|&(i, here)| i == 0 && here), "chunk 0 is the caller's own: {ran_here:?}");
        // One chunk runs where it is called, with no hand-over.
        let mut one = vec![0u8; 4];
        workers.for_each_chunk(&mut one, 4, |_, _| assert_eq!(std::thread::current().id(), me));
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
