//! The one place where work runs in parallel: every fan-out of the flow
//! (loading minors, the emitters, each emitter's minors or files,
//! comparing and writing files) goes through these functions, which run on
//! rayon's global pool.
//!
//! The pool has one thread per core (`RAYON_NUM_THREADS` overrides it) and
//! nested fan-outs share it: the Rust lane's rendering and the Pkl lane's
//! minors, running at the same time, take turns on the same threads instead
//! of each spawning one per core. Results come back in the input's order and
//! the first error in that order wins, so the output never depends on which
//! thread finished first.

use rayon::prelude::*;

/// How many threads the pool runs work on.
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// Runs `a` and `b`, in parallel when a thread is free.
pub fn join<A, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B)
where
    A: Send,
    B: Send,
{
    rayon::join(a, b)
}

/// `f` of every item, in the items' order; every item is a task of its own,
/// for few items that each cost much (a minor, a file to format). Items
/// earlier in `items` start earlier, so put the costliest first.
pub fn map_each<T, R>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    items.par_iter().with_max_len(1).map(f).collect()
}

/// [`map_each`] for fallible work: every item runs, then the first error in
/// the items' order is returned.
pub fn try_map_each<T, R, E>(
    items: &[T],
    f: impl Fn(&T) -> Result<R, E> + Sync + Send,
) -> Result<Vec<R>, E>
where
    T: Sync,
    R: Send,
    E: Send,
{
    map_each(items, f).into_iter().collect()
}

/// `f` of every item, in the items' order, for many items that each cost
/// little (a file to compare): the pool splits them into batches.
pub fn map<T, R>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    items.par_iter().map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(
            map(&items, |n| n * 2),
            (0..1000).map(|n| n * 2).collect::<Vec<_>>()
        );
        assert_eq!(
            map_each(&items[..9], |n| n + 1),
            (1..10).collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_first_error_in_order_wins() {
        let items: Vec<u32> = (0..100).collect();
        let result: Result<Vec<u32>, u32> =
            try_map_each(&items, |&n| if n % 10 == 7 { Err(n) } else { Ok(n) });
        assert_eq!(result, Err(7));
    }

    #[test]
    fn nested_fan_outs_share_the_pool() {
        let outer: Vec<u32> = (0..4).collect();
        let sums = map_each(&outer, |&n| {
            let inner: Vec<u32> = (0..100).collect();
            map(&inner, |m| m + n).iter().sum::<u32>()
        });
        assert_eq!(sums, [4950, 5050, 5150, 5250]);
    }
}
