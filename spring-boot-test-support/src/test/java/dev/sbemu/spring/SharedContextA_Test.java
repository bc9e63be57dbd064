package dev.sbemu.spring;

/** The first of two classes sharing one cached context (see {@link SharedContextContract}). */
class SharedContextA_Test extends SharedContextContract {
}
