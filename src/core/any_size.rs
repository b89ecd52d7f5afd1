//! Values of any board size: an enum with one variant per [`Geometry`](super::geometry::Geometry)
//! type, declared by [`size_enum!`], and [`on_size!`], which runs one generic expression on
//! whichever variant a value holds. The dispatch over the seven sizes is written here once;
//! a type such as [`AnyGame`](super::any_game::AnyGame) declares its methods with it, one
//! line each, and the code inside stays monomorphised per size.

/// Declares `enum NAME { S7(TYPE<S7>), S9(..), ..., S19(..) }` with `From`
/// each sized value and `size()`.
macro_rules! size_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident of $ty:ident) => {
        $(#[$meta])*
        $vis enum $name {
            /// On the 7x7 board.
            S7($ty<$crate::core::geometry::S7>),
            /// On the 9x9 board.
            S9($ty<$crate::core::geometry::S9>),
            /// On the 11x11 board.
            S11($ty<$crate::core::geometry::S11>),
            /// On the 13x13 board.
            S13($ty<$crate::core::geometry::S13>),
            /// On the 15x15 board.
            S15($ty<$crate::core::geometry::S15>),
            /// On the 17x17 board.
            S17($ty<$crate::core::geometry::S17>),
            /// On the 19x19 board.
            S19($ty<$crate::core::geometry::S19>),
        }

        $crate::core::any_size::size_enum!(@from $name $ty S7 S9 S11 S13 S15 S17 S19);

        impl $name {
            /// The board size.
            pub fn size(&self) -> $crate::core::geometry::BoardSize {
                use $crate::core::geometry::BoardSize;
                match self {
                    $name::S7(_) => BoardSize::S7,
                    $name::S9(_) => BoardSize::S9,
                    $name::S11(_) => BoardSize::S11,
                    $name::S13(_) => BoardSize::S13,
                    $name::S15(_) => BoardSize::S15,
                    $name::S17(_) => BoardSize::S17,
                    $name::S19(_) => BoardSize::S19,
                }
            }
        }
    };
    (@from $name:ident $ty:ident $($s:ident)*) => {
        $(
            impl From<$ty<$crate::core::geometry::$s>> for $name {
                fn from(value: $ty<$crate::core::geometry::$s>) -> $name {
                    $name::$s(value)
                }
            }
        )*
    };
}
pub(crate) use size_enum;

/// Evaluates `$body` with `$v` bound to the sized value inside `$value` (an enum declared
/// by [`size_enum!`] and named `$name`), and optionally `$g` to its geometry type:
/// `on_size!(game, AnyGame, g => g.status())`, `on_size!(game, AnyGame, g: G => ...)`.
macro_rules! on_size {
    ($value:expr, $name:ident, $v:ident => $body:expr) => {
        $crate::core::any_size::on_size!($value, $name, $v: _G => $body)
    };
    ($value:expr, $name:ident, $v:ident: $g:ident => $body:expr) => {
        match $value {
            $name::S7($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S7;
                $body
            }
            $name::S9($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S9;
                $body
            }
            $name::S11($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S11;
                $body
            }
            $name::S13($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S13;
                $body
            }
            $name::S15($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S15;
                $body
            }
            $name::S17($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S17;
                $body
            }
            $name::S19($v) => {
                #[allow(dead_code)]
                type $g = $crate::core::geometry::S19;
                $body
            }
        }
    };
}
pub(crate) use on_size;
