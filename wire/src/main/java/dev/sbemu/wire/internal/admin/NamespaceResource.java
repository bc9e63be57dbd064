package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.Tier;

/** {@code /$namespaceinfo}: the namespace's name, tier and creation time. */
final class NamespaceResource {
    private static final String PATH = "$namespaceinfo";
    private final Site site;

    NamespaceResource(Site site) {
        this.site = site;
    }

    ManagementResponse get() {
        Tier tier = site.namespace().tier();
        return ManagementResponse.entry(
                200,
                Atom.document(out -> Atom.entry(out, site.url(PATH), site.name(), null, site.now(), site.name(), c -> {
                    c.startIn(Xml.SB, "NamespaceInfo");
                    c.element("CreatedTime", site.createdAt());
                    c.element("MessagingSKU", sku(tier));
                    c.element("MessagingUnits", tier == Tier.PREMIUM ? 1 : null);
                    c.element("ModifiedTime", site.createdAt());
                    c.element("Name", site.name());
                    c.element("NamespaceType", "Messaging");
                    c.end();
                })));
    }

    private static String sku(Tier tier) {
        return switch (tier) {
            case BASIC -> "Basic";
            case STANDARD -> "Standard";
            case PREMIUM -> "Premium";
        };
    }
}
