package dev.sbemu.spring;

import org.junit.jupiter.api.DisplayName;

/** The first of two classes sharing one cached context (see {@link SharedContextContract}). */
@DisplayName("SPRING-2 two classes share one context, not its messages or clock moves (A)")
class SharedContextA_Test extends SharedContextContract {}
