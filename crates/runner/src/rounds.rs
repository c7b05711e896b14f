//! Randomized interleaved rounds (Abedi and Brecht, ICPE 2017): the contenders of one problem
//! take one sample each per round, in an order shuffled afresh every round, so a slow minute on
//! a shared machine falls on all of them alike instead of on whichever ran then. The order is
//! drawn from a recorded seed, so a run's order can be replayed exactly.

use crate::measure::{Contender, HostEvictor, SamplingPlan};
use dspbench_core::{Error, SplitMix64};

/// The seed of a group's round order: the scenario's seed mixed with the group's place, so every
/// group has its own order and the same scenario gives the same orders on every machine.
pub fn round_seed(scenario_seed: u64, experiment: usize, group: usize) -> u64 {
    // One SplitMix64 step is a good 64-bit mix; chaining it over the parts keeps (e, g) and
    // (g, e) apart. The constant sets round orders apart from the input data's streams.
    const ROUND_STREAM: u64 = 0x726F_756E_6473_2121; // "rounds!!"
    [experiment as u64, group as u64]
        .iter()
        .fold(SplitMix64::new(scenario_seed ^ ROUND_STREAM).next_u64(), |value, &part| {
            SplitMix64::new(value ^ part).next_u64()
        })
}

/// The seed of pass `pass`'s round order in a group whose first pass uses `group_seed` (from
/// [`round_seed`]): the first pass keeps it, so a run of one pass orders its rounds as before
/// passes existed.
pub fn pass_seed(group_seed: u64, pass: usize) -> u64 {
    if pass == 0 {
        group_seed
    } else {
        // The golden-ratio multiple spreads small pass numbers over all 64 bits before the mix.
        SplitMix64::new(group_seed ^ (pass as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
    }
}

/// The shuffled orders of one group's rounds.
pub struct RoundOrder {
    rng: SplitMix64,
}

impl RoundOrder {
    pub fn new(seed: u64) -> RoundOrder {
        RoundOrder { rng: SplitMix64::new(seed) }
    }

    /// `active` in this round's order (Fisher–Yates with the group's generator).
    pub fn next_round(&mut self, active: &[usize]) -> Vec<usize> {
        let mut order = active.to_vec();
        for i in (1..order.len()).rev() {
            // The modulo bias of 64 random bits over a handful of contenders is far below 1e-15.
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order
    }
}

/// A contender of a group: still measuring (or stopped), failed on the device, or refused at
/// planning (its record says why).
pub enum Slot {
    Measuring(Contender),
    Failed(Error),
    Refused,
}

impl Slot {
    fn still_sampling(&self) -> bool {
        matches!(self, Slot::Measuring(c) if c.stop.is_none())
    }
}

/// Samples every contender of `slots` in rounds numbered from `first_round` until each has
/// stopped (its stopping rule) or failed; returns the number of the next round (a later pass of
/// the same problem goes on from there, so rounds never repeat). `progress(round,
/// still_sampling)` is called after every round.
pub fn sample_in_rounds(
    slots: &mut [Slot],
    plan: &SamplingPlan,
    order: &mut RoundOrder,
    evictor: &mut HostEvictor,
    first_round: u32,
    progress: &mut dyn FnMut(u32, usize),
) -> u32 {
    for round in first_round.. {
        let active: Vec<usize> = (0..slots.len()).filter(|&i| slots[i].still_sampling()).collect();
        if active.is_empty() {
            return round;
        }
        for i in order.next_round(&active) {
            if let Slot::Measuring(contender) = &mut slots[i] {
                if let Err(e) = contender.sample(round, plan, evictor) {
                    slots[i] = Slot::Failed(e);
                }
            }
        }
        for slot in slots.iter_mut() {
            if let Slot::Measuring(contender) = slot {
                contender.check_stop(plan);
            }
        }
        progress(round, slots.iter().filter(|s| s.still_sampling()).count());
    }
    unreachable!("every contender stops within its sample limit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contender_once_per_round_in_a_seeded_order() {
        let active = [0, 1, 2, 3, 4];
        let mut a = RoundOrder::new(7);
        let mut b = RoundOrder::new(7);
        let mut c = RoundOrder::new(8);
        let mut orders = std::collections::HashSet::new();
        let mut differs = false;
        for _ in 0..50 {
            let round = a.next_round(&active);
            let mut sorted = round.clone();
            sorted.sort();
            assert_eq!(sorted, active, "each contender exactly once");
            assert_eq!(round, b.next_round(&active), "the same seed replays the same order");
            differs |= round != c.next_round(&active);
            orders.insert(round);
        }
        assert!(differs, "another seed gives other orders");
        assert!(orders.len() > 20, "orders are shuffled afresh each round: {} distinct of 50", orders.len());
    }

    #[test]
    fn first_places_are_spread_evenly() {
        let mut order = RoundOrder::new(1);
        let mut first = [0usize; 4];
        for _ in 0..4000 {
            first[order.next_round(&[0, 1, 2, 3])[0]] += 1;
        }
        assert!(first.iter().all(|&n| (900..1100).contains(&n)), "{first:?}");
    }

    #[test]
    fn the_first_pass_keeps_the_group_seed_and_later_ones_differ() {
        assert_eq!(pass_seed(42, 0), 42);
        let seeds: std::collections::HashSet<u64> = (0..8).map(|p| pass_seed(42, p)).collect();
        assert_eq!(seeds.len(), 8);
        assert_eq!(pass_seed(42, 3), pass_seed(42, 3));
    }

    #[test]
    fn seeds_differ_by_experiment_and_group_and_are_stable() {
        let s = round_seed(42, 0, 0);
        assert_eq!(s, round_seed(42, 0, 0));
        assert_ne!(s, round_seed(42, 0, 1));
        assert_ne!(s, round_seed(42, 1, 0));
        assert_ne!(s, round_seed(43, 0, 0));
    }
}
