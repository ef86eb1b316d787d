//! Running a program as the hostile-input tests do: under a 2 GiB
//! address-space cap (`ulimit -v 2097152`, the cap of
//! /work/shared/reliability's README) and a 30 s wall-time limit, from the
//! repository root. The CPU time it used (user + system, from sh's
//! `times`) is returned: unlike wall time it does not grow when other
//! tests load the machine. A run past the limit ends with `timeout`'s
//! exit code 124, which no test accepts.

use std::ffi::OsStr;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// What a capped run gave.
pub struct Capped {
    pub output: Output,
    /// User + system time of the program.
    pub cpu: Duration,
}

/// Runs `program` with `args` and `envs` under the caps.
pub fn run<S: AsRef<OsStr>>(program: &OsStr, args: &[S], envs: &[(&str, &str)]) -> Capped {
    let times = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(
            "ulimit -v 2097152 && timeout 30 \"$0\" \"$@\"; code=$?; \
             times > \"$CAPPED_TIMES\"; exit $code",
        )
        .arg(program)
        .args(args)
        .envs(envs.iter().copied())
        .env("CAPPED_TIMES", times.path())
        .current_dir(super::root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = command.output().expect("sh runs");
    let times = std::fs::read_to_string(times.path()).expect("sh wrote its times");
    Capped {
        output,
        cpu: children_cpu_time(&times),
    }
}

/// Runs the `vergate` binary under the caps.
pub fn vergate<S: AsRef<OsStr>>(args: &[S]) -> Capped {
    run(OsStr::new(env!("CARGO_BIN_EXE_vergate")), args, &[])
}

/// The children's user + system time from the output of sh's `times`: its
/// second line, `0m1.230000s 0m0.040000s`.
pub fn children_cpu_time(times: &str) -> Duration {
    let line = times.lines().nth(1).expect("times prints two lines");
    line.split_whitespace()
        .map(|field| {
            let (minutes, seconds) = field
                .trim_end_matches('s')
                .split_once('m')
                .expect("a time is NmS.SSSs");
            Duration::from_secs_f64(
                minutes.parse::<f64>().unwrap() * 60.0 + seconds.parse::<f64>().unwrap(),
            )
        })
        .sum()
}
