package dev.sbemu.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application of this module's tests: Spring Cloud Azure's auto-configuration and nothing else. */
@SpringBootApplication
public class TestApplication {}
