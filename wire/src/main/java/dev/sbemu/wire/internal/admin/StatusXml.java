package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityStatus;

/** Entity status names as the service spells them. */
final class StatusXml {
    private StatusXml() {}

    static EntityStatus read(String element, String text) {
        return switch (text.trim()) {
            case "Active" -> EntityStatus.ACTIVE;
            case "Disabled" -> EntityStatus.DISABLED;
            case "SendDisabled" -> EntityStatus.SEND_DISABLED;
            case "ReceiveDisabled" -> EntityStatus.RECEIVE_DISABLED;
            default ->
                throw ManagementException.badRequest("The value '" + text + "' of " + element
                        + " is not a status a client can set (Active, Disabled, SendDisabled, ReceiveDisabled).");
        };
    }

    static String write(EntityStatus status) {
        return switch (status) {
            case ACTIVE -> "Active";
            case DISABLED -> "Disabled";
            case SEND_DISABLED -> "SendDisabled";
            case RECEIVE_DISABLED -> "ReceiveDisabled";
        };
    }
}
