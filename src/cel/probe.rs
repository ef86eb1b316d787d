//! One CEL expression run on given variables, its runtime cost counted as
//! a rule's is ([`super::meter`]): what the runtime-cost tests compare with
//! cel-go's and Kubernetes' own figures, and a way to see what a rule
//! costs.

use super::charges::Costing;
use super::meter::{self, Stop};
use super::rule::ENV;
use cel::objects::Value;
use cel::Context;
use std::sync::Arc;

/// What running an expression gave.
#[derive(Debug)]
pub struct Run {
    /// Its value, or its error in cel-rust's words.
    pub value: Result<Value, String>,
    /// Its runtime cost, as far as it ran.
    pub cost: u64,
    /// It was stopped: past `limit` (cel-go's cancellation), or past what
    /// one evaluation may build ([`meter::WORK_LIMIT`], [`meter::TEXT_LIMIT`]).
    pub stopped: Option<Stop>,
}

/// Runs `source` with `variables` bound, its cost counted as `costing`
/// says and stopped past `limit`; `Err` when it does not compile.
pub fn run(
    source: &str,
    variables: Vec<(&str, Value)>,
    costing: Costing,
    limit: u64,
) -> Result<Run, String> {
    let program = ENV.compile(source).map_err(|err| err.to_string())?;
    let planned = super::plan::plan_with(program.expression(), costing);
    let mut context = Context::with_env(Arc::clone(&ENV));
    super::library::register(&mut context);
    for (name, value) in variables {
        context
            .add_variable(name, value)
            .map_err(|err| err.to_string())?;
    }
    meter::start(limit);
    let value = Value::resolve(&planned, &context).map_err(|err| err.to_string());
    Ok(Run {
        value,
        cost: meter::cost(),
        stopped: meter::stopped(),
    })
}
