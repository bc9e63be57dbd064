package dev.sbemu.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * An AMQP {@code decimal32}, {@code decimal64} or {@code decimal128} value as a message property carries it: the
 * IEEE 754-2008 bits as the sender put them on the wire (kept, so that the value goes back out exactly as it came,
 * spec MSG-5), and the number they stand for in the binary integer decimal (BID) encoding, which SQL filters compare
 * (RUL-6) and the control API shows. AMQP 1.0 §1.6.18–20 names the IEEE 754-2008 types; the encoding is the one
 * Microsoft's AMQP library (Microsoft.Azure.Amqp {@code DecimalEncoding}, the .NET SDK's) writes and reads: sign,
 * biased exponent, then the coefficient, or the {@code 11} form with the coefficient's {@code 100} prefix implied.
 * A coefficient beyond the type's precision is non-canonical and reads as zero, as IEEE 754-2008 says. Immutable.
 */
public final class AmqpDecimal extends Number {
    private static final long serialVersionUID = 1L;

    private final int width;
    private final long high;
    private final long low;
    private final BigDecimal value;
    private final double special;

    private AmqpDecimal(int width, long high, long low) {
        this.width = width;
        this.high = high;
        this.low = low;
        BigInteger bits = BigInteger.valueOf(high)
                .shiftLeft(64)
                .or(new BigInteger(Long.toUnsignedString(low)))
                .and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
        Decoded decoded = decode(width, bits);
        this.value = decoded.value;
        this.special = decoded.special;
    }

    /** A {@code decimal32} of these bits. */
    public static AmqpDecimal decimal32(int bits) {
        return new AmqpDecimal(32, 0, Integer.toUnsignedLong(bits));
    }

    /** A {@code decimal64} of these bits. */
    public static AmqpDecimal decimal64(long bits) {
        return new AmqpDecimal(64, 0, bits);
    }

    /** A {@code decimal128} of these bits: the most significant 64, then the least significant 64. */
    public static AmqpDecimal decimal128(long mostSignificant, long leastSignificant) {
        return new AmqpDecimal(128, mostSignificant, leastSignificant);
    }

    /** 32, 64 or 128. */
    public int width() {
        return width;
    }

    /** The bits of a {@code decimal32} (as an int) or a {@code decimal64}, or the low 64 bits of a {@code decimal128}. */
    public long bits() {
        return low;
    }

    /** The high 64 bits of a {@code decimal128}; 0 for the narrower types. */
    public long highBits() {
        return high;
    }

    /** The number, or null for NaN and the infinities. */
    public BigDecimal value() {
        return value;
    }

    @Override
    public int intValue() {
        return (int) longValue();
    }

    @Override
    public long longValue() {
        return value == null ? (long) special : value.longValue();
    }

    @Override
    public float floatValue() {
        return (float) doubleValue();
    }

    @Override
    public double doubleValue() {
        return value == null ? special : value.doubleValue();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AmqpDecimal d && d.width == width && d.high == high && d.low == low;
    }

    @Override
    public int hashCode() {
        return Objects.hash(width, high, low);
    }

    /** The number ({@link BigDecimal#toString}), or {@code NaN}, {@code Infinity}, {@code -Infinity}. */
    @Override
    public String toString() {
        return value == null ? Double.toString(special) : value.toString();
    }

    private record Decoded(BigDecimal value, double special) {}

    private static Decoded decode(int width, BigInteger bits) {
        int exponentBits = width == 32 ? 8 : width == 64 ? 10 : 14;
        int bias = width == 32 ? 101 : width == 64 ? 398 : 6176;
        BigInteger maxCoefficient =
                BigInteger.TEN.pow(width == 32 ? 7 : width == 64 ? 16 : 34).subtract(BigInteger.ONE);
        boolean negative = bits.testBit(width - 1);
        int exponent;
        BigInteger coefficient;
        if (bits.testBit(width - 2) && bits.testBit(width - 3)) {
            if (bits.testBit(width - 4) && bits.testBit(width - 5)) {
                // 11110: infinity, 11111: NaN
                double special = bits.testBit(width - 6)
                        ? Double.NaN
                        : negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                return new Decoded(null, special);
            }
            int coefficientBits = width - 3 - exponentBits;
            exponent = bits.shiftRight(coefficientBits).intValue() & ((1 << exponentBits) - 1);
            // the coefficient's leading 100 is implied
            coefficient = bits.and(BigInteger.ONE.shiftLeft(coefficientBits).subtract(BigInteger.ONE))
                    .or(BigInteger.valueOf(4).shiftLeft(coefficientBits));
        } else {
            int coefficientBits = width - 1 - exponentBits;
            exponent = bits.shiftRight(coefficientBits).intValue() & ((1 << exponentBits) - 1);
            coefficient = bits.and(BigInteger.ONE.shiftLeft(coefficientBits).subtract(BigInteger.ONE));
        }
        if (coefficient.compareTo(maxCoefficient) > 0) {
            coefficient = BigInteger.ZERO;
        }
        BigDecimal number = new BigDecimal(coefficient, bias - exponent);
        return new Decoded(negative ? number.negate() : number, 0);
    }
}
