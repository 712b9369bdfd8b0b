//! What criterion measured: it leaves each benchmark's last run in
//! `<target>/criterion/<group>/<function>[/<value>]/new/`, its names in `benchmark.json` and
//! its statistics in `estimates.json` (times in nanoseconds per iteration).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;

use crate::Result;

/// One benchmark's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The benchmark group (`a_5x5_unsolvable`).
    pub group: String,
    /// The benchmark within the group, with its parameter if it has one (`fast`, `solve/8`).
    pub function: String,
    /// The median time of one iteration, in nanoseconds.
    pub median: f64,
    /// The bounds of criterion's confidence interval (95% by default) of the median, in
    /// nanoseconds.
    pub interval: (f64, f64),
}

#[cfg(test)]
impl Measured {
    /// A result of `median` nanoseconds with no uncertainty, for tests.
    pub fn exactly(group: &str, function: &str, median: f64) -> Measured {
        Measured {
            group: group.to_owned(),
            function: function.to_owned(),
            median,
            interval: (median, median),
        }
    }
}

/// Every result criterion wrote under `dir` at or after `since`, in the order they were
/// written, which is the order the benchmarks ran.
pub fn written_since(dir: &Path, since: SystemTime) -> Result<Vec<Measured>> {
    let mut found = Vec::new();
    for folder in result_folders(dir) {
        let estimates = folder.join("estimates.json");
        let Ok(written) = std::fs::metadata(&estimates).and_then(|metadata| metadata.modified()) else {
            continue;
        };
        if written < since {
            continue;
        }
        let names = read_json(&folder.join("benchmark.json"))?;
        found.push((written, measured(&names, &read_json(&estimates)?)?));
    }
    found.sort_by_key(|&(written, _)| written);
    Ok(found.into_iter().map(|(_, measured)| measured).collect())
}

/// The folders named `new` under `dir`, where criterion keeps the latest run of a benchmark.
fn result_folders(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                if entry.file_name() == "new" {
                    found.push(entry.path());
                } else {
                    pending.push(entry.path());
                }
            }
        }
    }
    found
}

fn read_json(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).map_err(|err| format!("{}: {err}", path.display()))?;
    serde_json::from_str(&text).map_err(|err| format!("{}: {err}", path.display()).into())
}

/// A result from criterion's `benchmark.json` (`names`) and `estimates.json`.
fn measured(names: &Value, estimates: &Value) -> Result<Measured> {
    let group = names["group_id"].as_str().ok_or("benchmark.json without a group_id")?.to_owned();
    let function: Vec<&str> =
        [&names["function_id"], &names["value_str"]].into_iter().filter_map(Value::as_str).collect();
    let median = &estimates["median"];
    let number = |value: &Value| value.as_f64().ok_or("estimates.json without the median's figures");
    Ok(Measured {
        group,
        function: function.join("/"),
        median: number(&median["point_estimate"])?,
        interval: (
            number(&median["confidence_interval"]["lower_bound"])?,
            number(&median["confidence_interval"]["upper_bound"])?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_read_from_criterion_files() {
        let names = serde_json::json!({
            "group_id": "c_7x7", "function_id": "fast", "value_str": null,
            "full_id": "c_7x7/fast", "directory_name": "c_7x7/fast", "title": "c_7x7/fast"
        });
        let estimates = serde_json::json!({
            "mean": {"confidence_interval": {"confidence_level": 0.95, "lower_bound": 1.0, "upper_bound": 3.0},
                     "point_estimate": 2.0, "standard_error": 0.1},
            "median": {"confidence_interval": {"confidence_level": 0.95, "lower_bound": 1500.0, "upper_bound": 1700.0},
                       "point_estimate": 1600.0, "standard_error": 20.0}
        });
        let expected = Measured {
            group: "c_7x7".to_owned(),
            function: "fast".to_owned(),
            median: 1600.0,
            interval: (1500.0, 1700.0),
        };
        assert_eq!(measured(&names, &estimates).unwrap(), expected);
        let with_value = serde_json::json!({"group_id": "g", "function_id": "solve", "value_str": "8"});
        assert_eq!(measured(&with_value, &estimates).unwrap().function, "solve/8");
    }
}
