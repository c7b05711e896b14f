//! How an image kernel turns its result into a u8 pixel: round half up, saturate to 0..=255.
//! Every u8 output of this backend goes through here, so all variants agree to the bit.

/// floor(v + 0.5), saturated to 0..=255 (NaN gives 0). Done in f64, where v + 0.5 is exact:
/// in f32 the largest value below 0.5 would round up to 1.
#[inline]
pub fn round_to_u8(v: f32) -> u8 {
    (f64::from(v) + 0.5).floor().clamp(0.0, 255.0) as u8
}

/// The mean of `area` u8 pixels that sum to `sum`, rounded half up exactly:
/// floor(sum / area + 1/2) = (2 sum + area) / (2 area), computed as (sum + area / 2) / area,
/// which is the same integer (the two differ only where 2 area divides 2 sum + area, which
/// needs area even, and then area / 2 is exact) and stays in u32 for every window
/// [`MAX_U8_WINDOW`](crate::MAX_U8_WINDOW) admits. u32 rather than u64 because a 64-bit division
/// costs as much as the rest of a running-sum pixel and its time grows with the window.
#[inline]
pub fn mean_to_u8(sum: u32, area: u32) -> u8 {
    // The mean of u8 values is at most 255, so the quotient always fits.
    ((sum + area / 2) / area) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_up_and_saturates() {
        assert_eq!(round_to_u8(0.49999997), 0);
        assert_eq!(round_to_u8(0.5), 1);
        assert_eq!(round_to_u8(254.5), 255);
        assert_eq!(round_to_u8(300.0), 255);
        assert_eq!(round_to_u8(-3.0), 0);
        assert_eq!(round_to_u8(f32::NAN), 0);
    }

    #[test]
    fn mean_is_floor_of_mean_plus_half() {
        for area in 1..=49u32 {
            for sum in 0..=255 * area {
                let exact = (2 * u64::from(sum) + u64::from(area)) / (2 * u64::from(area));
                assert_eq!(u64::from(mean_to_u8(sum, area)), exact, "{sum} / {area}");
            }
        }
        // The largest window of u8::MAX_WINDOW = 4099, all pixels 255: no overflow.
        assert_eq!(mean_to_u8(255 * 4099 * 4099, 4099 * 4099), 255);
    }
}
