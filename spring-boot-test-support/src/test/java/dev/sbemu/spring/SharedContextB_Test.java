package dev.sbemu.spring;

import org.junit.jupiter.api.DisplayName;

/** The second of two classes sharing one cached context (see {@link SharedContextContract}). */
@DisplayName("SPRING-2 two classes share one context, not its messages or clock moves (B)")
class SharedContextB_Test extends SharedContextContract {}
