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
//! (`+` on lists). [`WORK_LIMIT`] and [`TEXT_LIMIT`] bound that, so that
//! no rule exhausts memory: they are vergate's bounds, not the API
//! server's.

use cel::ExecutionError;
use std::cell::Cell;

/// The API server's runtime cost limit for one evaluation of a rule
/// (`PerCallLimit` of k8s.io/apiserver `pkg/apis/cel/config.go`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// The API server's runtime cost budget for all the rules run on one
/// object (`RuntimeCELCostBudget`, same file), which the apiextensions
/// validator spends rule by rule.
pub const RESOURCE_BUDGET: u64 = 10_000_000;

/// The most list items one evaluation may build: 8 Mi. A list that long
/// costs at least 8 Mi to traverse once, past the per-call limit, so a
/// rule under it that builds more is one that the API server's cost
/// model lets through without ever reading what it built; the bound keeps
/// such a rule under about half a GiB of memory (an item takes a box and
/// its value).
pub const WORK_LIMIT: u64 = 8 << 20;

/// The most characters of strings and bytes one evaluation may build:
/// 64 Mi (a byte or a few each). cel-go charges a tenth of a unit per
/// character read, so a string of 10 Mi characters is still one the API
/// server's cost model lets a rule build and then read (and cancel, past
/// the limit); under this bound vergate runs such a rule to the server's
/// own verdict, and stops only one that builds far more than it could
/// ever read.
pub const TEXT_LIMIT: u64 = 64 << 20;

/// cel-go's error when an evaluation passes its cost limit
/// (`EvalCancelledError`, `CostLimitExceeded`).
pub const COST_LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// Why an evaluation was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Past the cost limit (cel-go's cancellation).
    Cost,
    /// Past [`WORK_LIMIT`] or [`TEXT_LIMIT`]: the value it was about to
    /// build, in items or characters, and the limit passed.
    Work(u64, u64),
}

#[derive(Clone, Copy)]
struct State {
    cost: u64,
    limit: u64,
    work: u64,
    text: u64,
    stop: Option<Stop>,
}

thread_local! {
    static METER: Cell<State> = const {
        Cell::new(State { cost: 0, limit: u64::MAX, work: 0, text: 0, stop: None })
    };
}

/// Starts counting one evaluation, which may cost up to `limit`.
pub fn start(limit: u64) {
    METER.with(|meter| {
        meter.set(State {
            cost: 0,
            limit,
            work: 0,
            text: 0,
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

/// Counts a list of `units` items about to be built; fails, before it
/// is, when that passes [`WORK_LIMIT`].
pub fn build(units: u64) -> Result<(), ExecutionError> {
    METER.with(|meter| {
        let mut state = meter.get();
        state.work = state.work.saturating_add(units);
        if state.stop.is_none() && state.work > WORK_LIMIT {
            state.stop = Some(Stop::Work(units, WORK_LIMIT));
        }
        meter.set(state);
        match state.stop {
            None => Ok(()),
            Some(_) => Err(cancelled()),
        }
    })
}

/// Counts a string (or bytes) of `units` characters about to be built;
/// fails, before it is, when that passes [`TEXT_LIMIT`].
pub fn build_text(units: u64) -> Result<(), ExecutionError> {
    METER.with(|meter| {
        let mut state = meter.get();
        state.text = state.text.saturating_add(units);
        if state.stop.is_none() && state.text > TEXT_LIMIT {
            state.stop = Some(Stop::Work(units, TEXT_LIMIT));
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
        assert_eq!(stopped(), Some(Stop::Work(1, WORK_LIMIT)));
        start(10);
        assert!(build_text(TEXT_LIMIT).is_ok());
        assert!(build(1).is_ok());
        assert!(build_text(1).is_err());
        assert_eq!(stopped(), Some(Stop::Work(1, TEXT_LIMIT)));
    }
}
