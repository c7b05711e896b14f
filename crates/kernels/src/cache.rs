use crate::{Defines, KernelSource};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What makes two compilations the same: the exact source, its macros and the device.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub sha256: String,
    pub defines: Defines,
    /// The device (and anything about it that changes the binary, e.g. its architecture).
    pub device: String,
}

impl CacheKey {
    pub fn new(source: &KernelSource, defines: &Defines, device: impl Into<String>) -> Self {
        CacheKey { sha256: source.sha256.clone(), defines: defines.clone(), device: device.into() }
    }
}

/// Compiled programs by key: a sweep over 30 cells compiles each distinct configuration once.
/// `T` is the backend's compiled module or program.
pub struct Cache<T> {
    entries: Mutex<HashMap<CacheKey, Arc<T>>>,
}

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Cache { entries: Mutex::new(HashMap::new()) }
    }
}

impl<T> Cache<T> {
    /// The cached value for `key`, or the result of `compile`, stored on success. Errors are
    /// not cached, so a fixed kernel (via `DSPBENCH_KERNELS`) compiles on the next try.
    pub fn get_or_compile<E>(&self, key: CacheKey, compile: impl FnOnce() -> Result<T, E>) -> Result<Arc<T>, E> {
        if let Some(hit) = self.entries.lock().expect("cache lock").get(&key) {
            return Ok(hit.clone());
        }
        // Compiling outside the lock: a slow NVRTC call must not block other keys.
        let value = Arc::new(compile()?);
        Ok(self.entries.lock().expect("cache lock").entry(key).or_insert(value).clone())
    }

    pub fn len(&self) -> usize {
        self.entries.lock().expect("cache lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dialect, Origin};

    fn src(text: &str) -> KernelSource {
        KernelSource {
            dialect: Dialect::Cuda,
            name: "k".into(),
            text: text.into(),
            sha256: text.into(),
            origin: Origin::Embedded,
        }
    }

    #[test]
    fn compiles_once_per_key_and_does_not_cache_errors() {
        let cache: Cache<u32> = Cache::default();
        let key = CacheKey::new(&src("a"), &Defines::new().set("R", 1), "gpu0");
        let mut calls = 0;
        for _ in 0..3 {
            let v = cache.get_or_compile::<()>(key.clone(), || {
                calls += 1;
                Ok(7)
            });
            assert_eq!(*v.unwrap(), 7);
        }
        assert_eq!(calls, 1);
        let other = CacheKey::new(&src("a"), &Defines::new().set("R", 2), "gpu0");
        assert!(cache.get_or_compile(other.clone(), || Err("boom")).is_err());
        assert_eq!(*cache.get_or_compile::<()>(other, || Ok(9)).unwrap(), 9);
        assert_eq!(cache.len(), 2);
    }
}
