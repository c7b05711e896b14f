//! OpenCL status codes turned into the suite's errors, with what was being done and a hint for
//! the codes a user can act on.

use dspbench_core::Error;
use opencl3::error_codes::{
    ClError, CL_INVALID_BUFFER_SIZE, CL_INVALID_WORK_GROUP_SIZE, CL_MEM_OBJECT_ALLOCATION_FAILURE,
    CL_OUT_OF_HOST_MEMORY, CL_OUT_OF_RESOURCES,
};

/// A device error for status `e` met while `doing` something ("allocating buffer `x` of 4 MiB").
pub(crate) fn cl_failure(e: ClError, doing: &str) -> Error {
    let hint = match e.0 {
        CL_MEM_OBJECT_ALLOCATION_FAILURE | CL_INVALID_BUFFER_SIZE => " (the device is out of memory for this size)",
        CL_OUT_OF_RESOURCES => " (out of device resources: memory, registers or local memory for this size)",
        CL_OUT_OF_HOST_MEMORY => " (the host is out of memory)",
        CL_INVALID_WORK_GROUP_SIZE => " (the work-group size does not fit this kernel on this device)",
        _ => "",
    };
    Error::device(format!("{doing}: {e} ({}){hint}", e.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_code_the_action_and_a_hint() {
        let msg = cl_failure(ClError(CL_MEM_OBJECT_ALLOCATION_FAILURE), "allocating buffer `signal` of 2.00 MiB");
        let text = msg.to_string();
        assert!(text.contains("CL_MEM_OBJECT_ALLOCATION_FAILURE"), "{text}");
        assert!(text.contains("`signal`") && text.contains("out of memory"), "{text}");
    }
}
