package dev.sbemu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** AMQP's IEEE 754-2008 decimals in the BID encoding, as Microsoft's AMQP library writes them. */
class AmqpDecimalTest {

    @Test
    @DisplayName("MSG-5 decimal32: sign, 8-bit exponent biased by 101, 23-bit coefficient; the 11 form's coefficient"
            + " has its 100 prefix implied")
    void decimal32() {
        // -2.25: coefficient 225, exponent -2
        AmqpDecimal negative = AmqpDecimal.decimal32(0x8000_0000 | (99 << 23) | 225);
        assertEquals(new BigDecimal("-2.25"), negative.value());
        assertEquals(-2.25, negative.doubleValue());
        assertEquals(32, negative.width());
        // 9,999,999 needs 24 bits: 11, exponent 101, then the low 21 bits of the coefficient
        AmqpDecimal large = AmqpDecimal.decimal32((0b11 << 29) | (101 << 21) | (9_999_999 - (1 << 23)));
        assertEquals(new BigDecimal("9999999"), large.value());
        // beyond 7 digits: non-canonical, zero
        AmqpDecimal nonCanonical = AmqpDecimal.decimal32((0b11 << 29) | (101 << 21) | 0x1F_FFFF);
        assertEquals(0, nonCanonical.value().signum());
    }

    @Test
    @DisplayName("MSG-5 decimal64 and decimal128 (the .NET SDK's System.Decimal: exponent 6176 minus the scale in the"
            + " top 14 bits after the sign, the 96-bit integer at the bottom)")
    void decimal64And128() {
        AmqpDecimal price = AmqpDecimal.decimal64((397L << 53) | 15);
        assertEquals(new BigDecimal("1.5"), price.value());
        AmqpDecimal net = AmqpDecimal.decimal128((6176L - 3) << 49, 12_345);
        assertEquals(new BigDecimal("12.345"), net.value());
        assertEquals("12.345", net.toString());
        AmqpDecimal big = AmqpDecimal.decimal128(((6176L - 2) << 49) | 0x1, 0x0L);
        assertEquals(new BigDecimal(new BigInteger("18446744073709551616"), 2), big.value());
        assertEquals(
                -1, AmqpDecimal.decimal128(Long.MIN_VALUE | (6176L << 49), 1).longValue());
    }

    @Test
    @DisplayName("MSG-5 NaN and the infinities have no number; equality is by width and bits")
    void specialsAndEquality() {
        assertNull(AmqpDecimal.decimal32(0x7C00_0000).value());
        assertEquals(Double.NaN, AmqpDecimal.decimal32(0x7C00_0000).doubleValue());
        assertEquals(
                Double.POSITIVE_INFINITY,
                AmqpDecimal.decimal64(0x7800_0000_0000_0000L).doubleValue());
        assertEquals(
                Double.NEGATIVE_INFINITY,
                AmqpDecimal.decimal128(0xF800_0000_0000_0000L, 0).doubleValue());
        assertEquals(
                "-Infinity", AmqpDecimal.decimal128(0xF800_0000_0000_0000L, 0).toString());
        // 1.5 and 1.50 are one number, but not the same bits
        AmqpDecimal a = AmqpDecimal.decimal64((397L << 53) | 15);
        AmqpDecimal b = AmqpDecimal.decimal64((396L << 53) | 150);
        assertEquals(0, a.value().compareTo(b.value()));
        assertNotEquals(a, b);
        assertEquals(a, AmqpDecimal.decimal64((397L << 53) | 15));
        assertNotEquals(AmqpDecimal.decimal32(15), AmqpDecimal.decimal64(15));
    }
}
