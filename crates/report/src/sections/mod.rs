//! The report's sections, in the order they appear.

pub(crate) mod appendix;
pub(crate) mod devices;
pub(crate) mod experiment_charts;
pub(crate) mod experiments;
pub(crate) mod machines;
pub(crate) mod overview;
pub(crate) mod roofline;
pub(crate) mod summary;
