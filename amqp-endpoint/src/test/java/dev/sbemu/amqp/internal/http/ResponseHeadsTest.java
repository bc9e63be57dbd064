package dev.sbemu.amqp.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The splice's answer rewriting, fed the way the selector delivers bytes: in pieces, into a small buffer. */
class ResponseHeadsTest {
    private static final String REFUSED =
            "HTTP/1.1 401 Unauthorized\r\nSbemu-Reason: SubCode=40100: no\r\n" + "Content-length: 3\r\n\r\nabc";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-length: 2\r\n\r\nok";

    /** Feeds {@code answers} a few bytes at a time through a buffer of {@code outSize}. */
    private static String pass(ResponseHeads heads, String answers, int piece, int outSize) {
        byte[] bytes = answers.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer in = ByteBuffer.allocate(256);
        ByteBuffer out = ByteBuffer.allocate(outSize);
        StringBuilder client = new StringBuilder();
        int fed = 0;
        for (int round = 0; round < 10_000 && (fed < bytes.length || in.position() > 0); round++) {
            int n = Math.min(piece, Math.min(in.remaining(), bytes.length - fed));
            in.put(bytes, fed, n);
            fed += n;
            in.flip();
            heads.transfer(in, out);
            in.compact();
            out.flip();
            client.append(StandardCharsets.ISO_8859_1.decode(out));
            out.clear();
        }
        return client.toString();
    }

    @Test
    @DisplayName("SEC-6 the reason header becomes the phrase, in heads split over reads, between answers with bodies")
    void phraseMovesIntoTheStatusLine() {
        ResponseHeads heads = new ResponseHeads();
        heads.requestPassedOn("GET");
        heads.requestPassedOn("GET");
        heads.requestPassedOn("GET");
        assertEquals(
                OK + "HTTP/1.1 401 SubCode=40100: no\r\nContent-length: 3\r\n\r\nabc" + OK,
                pass(heads, OK + REFUSED + OK, 5, 64));
    }

    @Test
    @DisplayName("SEC-6 an answer it cannot follow (chunked) and everything after it pass as they are")
    void chunkedTurnsItOff() {
        ResponseHeads heads = new ResponseHeads();
        heads.requestPassedOn("GET");
        heads.requestPassedOn("GET");
        String chunked = "HTTP/1.1 200 OK\r\nTransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n";
        assertEquals(chunked + REFUSED, pass(heads, chunked + REFUSED, 7, 32));
    }

    @Test
    @DisplayName("SEC-6 a HEAD request's answer has no body though it names a length; a 100 Continue answers nothing")
    void headAndContinue() {
        ResponseHeads heads = new ResponseHeads();
        heads.requestPassedOn("HEAD");
        heads.requestPassedOn("PUT");
        String head = "HTTP/1.1 200 OK\r\nContent-length: 10\r\n\r\n";
        String answers = head + "HTTP/1.1 100 Continue\r\n\r\n" + REFUSED;
        assertEquals(
                head + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 SubCode=40100: no\r\nContent-length: 3\r\n\r\nabc",
                pass(heads, answers, 64, 256));
    }
}
