//! All timing of a search: a deadline measured from a given instant (the process start,
//! or the moment a kept-running bot read its request), an optional stop flag (a UAI or
//! GTP front end's `stop`), and optional iteration and depth caps.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    start: Instant,
    end: Option<Instant>,
    /// Set from outside to end the search at once.
    stop: Option<&'static AtomicBool>,
}

impl Deadline {
    /// A deadline `budget` after `start`.
    pub fn new(start: Instant, budget: Duration) -> Deadline {
        Deadline { start, end: Some(start + budget), stop: None }
    }

    /// A deadline that never expires (fixed-iteration searches).
    pub fn never() -> Deadline {
        Deadline { start: Instant::now(), end: None, stop: None }
    }

    /// This deadline, also expired once `stop` is set.
    pub fn with_stop(self, stop: &'static AtomicBool) -> Deadline {
        Deadline { stop: Some(stop), ..self }
    }

    pub fn expired(&self) -> bool {
        self.end.is_some_and(|end| Instant::now() >= end) || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Time left, or `None` when unlimited.
    pub fn remaining(&self) -> Option<Duration> {
        self.end.map(|end| end.saturating_duration_since(Instant::now()))
    }

    /// The whole budget, from the start to the deadline (`None` when unlimited): what a
    /// test of the margins can read without racing the clock.
    pub fn length(&self) -> Option<Duration> {
        self.end.map(|end| end - self.start)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// How long a search may run: until the deadline or the iteration cap, whichever first.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub deadline: Deadline,
    pub max_iterations: Option<u64>,
    /// The deepest iteration a depth-first search may start (UAI's `go depth`); searches
    /// without depth ignore it.
    pub max_depth: Option<u32>,
}

impl Budget {
    /// How many iterations pass between two reads of the clock: the clock costs tens of
    /// nanoseconds, an iteration microseconds, so this keeps timing exact to well under
    /// a millisecond.
    pub const CLOCK_INTERVAL: u64 = 16;

    /// Until `deadline`, with no other cap.
    pub fn until(deadline: Deadline) -> Budget {
        Budget { deadline, max_iterations: None, max_depth: None }
    }

    pub fn iterations(n: u64) -> Budget {
        Budget { deadline: Deadline::never(), max_iterations: Some(n), max_depth: None }
    }

    /// A part of this budget for a first search that may hand over to a second: `share`
    /// of the time left, and of the iteration cap (scaled by `nodes_per_iteration` when
    /// the first search counts in cheaper units, so that a fixed cap stays deterministic).
    pub fn share(&self, share: f64, nodes_per_iteration: f64) -> Budget {
        let deadline = match self.deadline.remaining() {
            Some(left) => Deadline::new(Instant::now(), left.mul_f64(share)),
            None => Deadline::never(),
        };
        Budget {
            deadline: Deadline { stop: self.deadline.stop, ..deadline },
            max_iterations: self.max_iterations.map(|n| (n as f64 * nodes_per_iteration * share) as u64),
            max_depth: self.max_depth,
        }
    }

    /// Whether a node-counting search (alpha-beta) must stop: over its node cap, or past
    /// the deadline. The caller reads this every thousand nodes or so.
    pub fn exhausted_nodes(&self, nodes: u64) -> bool {
        self.max_iterations.is_some_and(|max| nodes >= max) || self.deadline.expired()
    }

    /// Whether a search that has done `iterations` must stop now. Reads the clock only
    /// every `CLOCK_INTERVAL` iterations.
    pub fn exhausted(&self, iterations: u64) -> bool {
        if self.max_iterations.is_some_and(|max| iterations >= max) {
            return true;
        }
        iterations.is_multiple_of(Self::CLOCK_INTERVAL) && self.deadline.expired()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_expires_after_its_budget_only() {
        let d = Deadline::new(Instant::now(), Duration::from_millis(30));
        assert!(!d.expired());
        std::thread::sleep(Duration::from_millis(40));
        assert!(d.expired());
        assert_eq!(d.remaining(), Some(Duration::ZERO));
        assert!(!Deadline::never().expired());
    }

    #[test]
    fn deadline_counts_from_the_given_start() {
        let start = Instant::now() - Duration::from_millis(50);
        assert!(Deadline::new(start, Duration::from_millis(40)).expired());
    }

    #[test]
    fn iteration_cap_stops_without_a_clock() {
        let b = Budget::iterations(10);
        assert!(!b.exhausted(9));
        assert!(b.exhausted(10));
    }
}
