//! The process's CPU time, for the harnesses that compare thread counts by the CPU they cost
//! (the example `count_nodes` and the bench `count_threads` include this file).

use std::time::Duration;

/// The CPU time (user and system) this process has used so far, in clock ticks of 10 ms
/// (fields 14 and 15 of `/proc/self/stat`, after the command name in parentheses; Linux only).
pub fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    let after_name = &stat[stat.rfind(')').expect("the command name in parentheses") + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    Duration::from_millis(ticks * 10)
}
