package dev.sbemu.spring;

/** The second of two classes sharing one cached context (see {@link SharedContextContract}). */
class SharedContextB_Test extends SharedContextContract {
}
