//! The search's tunable constants, defined once each by `tunables!` (in `params.rs` and
//! `time.rs`) and read through `param!`; `params::all` lists them for the option registry.
//!
//! In the default build a tunable is a plain `const` and `param!(NAME)` is `NAME`: nothing
//! changes and nothing is paid. Built with `--features tune`, each one becomes a `Param` static
//! that the UCI layer lists as a spin option with its range (`option name LMR_BASE type spin
//! ...`) and `setoption` changes while the engine runs, for SPSA tuning; `param!(NAME)` then
//! reads it (a relaxed atomic load).
//!
//! Floating-point tunables are exposed in hundredths (`LMR_BASE` 0.75 is the option value 75),
//! since UCI spins are integers.
//!
//! A tunable is written as a constant with its range on the line above, so
//! `tools/build_variant.sh FILE:NAME=VALUE` still flips it:
//!
//! ```text
//! tunables! {
//! /// What it is.
//! #[tune(0, 300)]
//! pub const REVERSE_FUTILITY_MARGIN: i32 = 90;
//! }
//! ```

/// Defines tunables; see the module documentation.
macro_rules! tunables {
    ($(
        $(#[doc = $doc:expr])*
        #[tune($min:expr, $max:expr)]
        $vis:vis const $name:ident: $ty:ident = $val:expr;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            $vis const $name: $ty = $val;

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            $vis static $name: $crate::search::tune::Param<$ty> = $crate::search::tune::Param::new(
                stringify!($name),
                $crate::search::tune::tunables!(@raw $ty, $val),
                $min,
                $max,
            );
        )*

        /// This file's tunables, for the option registry.
        #[cfg(feature = "tune")]
        pub static TUNABLES: &[&dyn $crate::search::tune::Tunable] = &[$(&$name),*];
    };
    // Rounded, not truncated: 0.29 * 100.0 is 28.999..., and the option must read 29.
    (@raw f64, $val:expr) => {
        ($val * $crate::search::tune::FLOAT_SCALE).round() as i64
    };
    (@raw $ty:ident, $val:expr) => {
        $val as i64
    };
}
pub(crate) use tunables;

/// The value of tunable `NAME`: the constant itself, or under `tune` its current setting.
#[cfg(not(feature = "tune"))]
macro_rules! param {
    ($name:ident) => {
        $name
    };
}
#[cfg(feature = "tune")]
macro_rules! param {
    ($name:ident) => {
        $name.get()
    };
}
pub(crate) use param;

#[cfg(feature = "tune")]
pub use runtime::*;

#[cfg(feature = "tune")]
mod runtime {
    use std::marker::PhantomData;
    use std::sync::atomic::{AtomicI64, Ordering};

    /// Floating-point tunables are set and shown in units of 1 / FLOAT_SCALE.
    pub const FLOAT_SCALE: f64 = 100.0;

    /// What a tunable's type is made from: the option's integer value.
    pub trait FromRaw: Copy {
        fn from_raw(raw: i64) -> Self;
    }

    macro_rules! from_raw_as {
        ($($t:ty),*) => {
            $(impl FromRaw for $t {
                #[inline]
                fn from_raw(raw: i64) -> Self {
                    raw as $t
                }
            })*
        };
    }
    from_raw_as!(i32, u32, u64, usize);

    impl FromRaw for f64 {
        #[inline]
        fn from_raw(raw: i64) -> Self {
            raw as f64 / FLOAT_SCALE
        }
    }

    /// A tunable under `tune`: its option value (the raw integer), default and range.
    pub struct Param<T> {
        name: &'static str,
        raw: AtomicI64,
        default: i64,
        min: i64,
        max: i64,
        kind: PhantomData<fn() -> T>,
    }

    impl<T: FromRaw> Param<T> {
        pub const fn new(name: &'static str, default: i64, min: i64, max: i64) -> Param<T> {
            Param {
                name,
                raw: AtomicI64::new(default),
                default,
                min,
                max,
                kind: PhantomData,
            }
        }

        #[inline]
        pub fn get(&self) -> T {
            T::from_raw(self.raw.load(Ordering::Relaxed))
        }
    }

    /// A tunable as the option registry sees it.
    pub trait Tunable: Sync {
        fn name(&self) -> &'static str;
        fn default(&self) -> i64;
        fn min(&self) -> i64;
        fn max(&self) -> i64;
        fn raw(&self) -> i64;
        fn set_raw(&self, raw: i64);
    }

    impl<T: FromRaw> Tunable for Param<T> {
        fn name(&self) -> &'static str {
            self.name
        }
        fn default(&self) -> i64 {
            self.default
        }
        fn min(&self) -> i64 {
            self.min
        }
        fn max(&self) -> i64 {
            self.max
        }
        fn raw(&self) -> i64 {
            self.raw.load(Ordering::Relaxed)
        }
        fn set_raw(&self, raw: i64) {
            self.raw.store(raw, Ordering::Relaxed);
        }
    }
}
