//! Every scenario shipped in `scenarios/` is valid against the backends this build compiles,
//! whether or not their hardware is here (validation needs the catalog, not the devices).

use dspbench_runner::Registry;
use std::path::Path;

#[test]
fn every_shipped_scenario_loads_against_the_compiled_backends() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let catalog = Registry::compiled().catalog(u64::MAX);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for name in &names {
        let scenario = dspbench_scenario::load(&dir.join(name), &catalog).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{}.yaml", scenario.name), *name, "a scenario's name is its file's name");
        assert!(scenario.cell_count() > 0, "{name}");
    }
}
