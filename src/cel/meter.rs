//! The runtime cost of one evaluation, counted as cel-go counts it
//! (`interpreter/runtimecost.go`), and the limits that stop it.
//!
//! A rule's syntax tree is instrumented once, when it is planned
//! ([`super::charges`]): each part that runs as one (a rule's body, a
//! branch, a comprehension's loop condition or step) charges the static
//! cost of its nodes when it runs, and each call whose cost depends on its
//! values ([`super::sized`]) charges that cost from the values, before it
//! builds anything. Charges go to this thread's meter; past the limit the
//! charge fails with cel-go's error and the evaluation unwinds.
//!
//! Besides the API server's cost, the meter counts what a rule builds
//! (characters of strings, items of lists): cel-go's costs let a rule
//! build a string far larger than its cost (`replace` costs its input's
//! length, not its result's), and cel-rust copies where cel-go shares
//! (`+` on lists). [`WORK_LIMIT`] bounds that, so that no rule exhausts
//! memory: it is vergate's bound, not the API server's.

use cel::ExecutionError;
use std::cell::Cell;

/// The API server's runtime cost limit for one evaluation of a rule
/// (`PerCallLimit` of k8s.io/apiserver `pkg/apis/cel/config.go`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// The API server's runtime cost budget for all the rules run on one
/// object (`RuntimeCELCostBudget`, same file), which the apiextensions
/// validator spends rule by rule.
pub const RESOURCE_BUDGET: u64 = 10_000_000;

/// The most characters and list items one evaluation may build: 8 Mi.
/// A string or list that large costs at least 800,000 to traverse once
/// (cel-go's 0.1 per character), so a rule under the per-call limit that
/// builds more is one that the API server's cost model lets through
/// without ever reading what it built; the bound keeps such a rule under
/// about half a GiB of memory (a list item takes a box and its value).
pub const WORK_LIMIT: u64 = 8 << 20;

/// cel-go's error when an evaluation passes its cost limit
/// (`EvalCancelledError`, `CostLimitExceeded`).
pub const COST_LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// Why an evaluation was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Past the cost limit (cel-go's cancellation).
    Cost,
    /// Past [`WORK_LIMIT`]: the value it was about to build, in characters
    /// or items.
    Work(u64),
}

#[derive(Clone, Copy)]
struct State {
    cost: u64,
    limit: u64,
    work: u64,
    stop: Option<Stop>,
}

thread_local! {
    static METER: Cell<State> = const {
        Cell::new(State { cost: 0, limit: u64::MAX, work: 0, stop: None })
    };
}

/// Starts counting one evaluation, which may cost up to `limit`.
pub fn start(limit: u64) {
    METER.with(|meter| {
        meter.set(State {
            cost: 0,
            limit,
            work: 0,
            stop: None,
        })
    });
}

/// The cost counted since [`start`].
pub fn cost() -> u64 {
    METER.with(|meter| meter.get().cost)
}

/// Why the evaluation was stopped, if it was.
pub fn stopped() -> Option<Stop> {
    METER.with(|meter| meter.get().stop)
}

/// Adds `units` to the cost; fails with cel-go's error once past the
/// limit (and for every charge after).
pub fn charge(units: u64) -> Result<(), ExecutionError> {
    METER.with(|meter| {
        let mut state = meter.get();
        state.cost = state.cost.saturating_add(units);
        if state.stop.is_none() && state.cost > state.limit {
            state.stop = Some(Stop::Cost);
        }
        meter.set(state);
        match state.stop {
            None => Ok(()),
            Some(_) => Err(cancelled()),
        }
    })
}

/// Counts a value of `units` characters or items about to be built;
/// fails, before it is, when that passes [`WORK_LIMIT`].
pub fn build(units: u64) -> Result<(), ExecutionError> {
    METER.with(|meter| {
        let mut state = meter.get();
        state.work = state.work.saturating_add(units);
        if state.stop.is_none() && state.work > WORK_LIMIT {
            state.stop = Some(Stop::Work(units));
        }
        meter.set(state);
        match state.stop {
            None => Ok(()),
            Some(_) => Err(cancelled()),
        }
    })
}

fn cancelled() -> ExecutionError {
    ExecutionError::function_error("cost", COST_LIMIT_EXCEEDED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_stops_past_its_limit_and_stays_stopped() {
        start(10);
        assert!(charge(6).is_ok());
        assert!(charge(4).is_ok());
        assert_eq!(cost(), 10);
        assert!(charge(1).is_err());
        assert_eq!(stopped(), Some(Stop::Cost));
        assert!(charge(0).is_err());
        start(10);
        assert_eq!(stopped(), None);
        assert!(build(WORK_LIMIT).is_ok());
        assert!(build(1).is_err());
        assert_eq!(stopped(), Some(Stop::Work(1)));
    }
}
