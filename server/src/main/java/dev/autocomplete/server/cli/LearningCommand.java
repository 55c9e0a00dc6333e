package dev.autocomplete.server.cli;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.learning.LearningStore;
import dev.autocomplete.server.storage.MigrationMark;
import dev.autocomplete.server.tenant.TenantLoader;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code learning reset}: forgets what a tenant's products learned from picks, in the store the settings name. Running
 * servers, every replica, apply it within {@code learning.apply-seconds}.
 */
@Command(
        name = "learning",
        mixinStandardHelpOptions = true,
        description = "Manage what the service learned from users' picks.",
        subcommands = {LearningCommand.Reset.class})
public final class LearningCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "reset",
            mixinStandardHelpOptions = true,
            description = "Forget what a tenant (or one of its products) learned from picks.")
    static final class Reset implements Callable<Integer> {

        @CommandLine.Mixin
        SettingsOptions settings;

        @Option(names = "--tenant", required = true, paramLabel = "T", description = "Tenant id (its directory name).")
        String tenant;

        @Option(names = "--product", paramLabel = "P", description = "Only this product (its slug).")
        String product;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            ServerSettings resolved = settings.settings();
            MigrationMark.refuseWrites(resolved);
            try (LearningStore store = LearningStore.open(resolved)) {
                int forgotten = store.reset(tenant, product);
                if (forgotten == 0) {
                    // Nothing forgotten: a name that is no tenant or product here is a typo, not a reset (a tenant
                    // removed from the directory may still have its credits forgotten: then some are).
                    requireKnown(resolved.tenants());
                }
                spec.commandLine()
                        .getOut()
                        .println("Forgot " + forgotten + " learned credit" + (forgotten == 1 ? "" : "s") + " of "
                                + tenant + (product == null ? "" : "/" + product)
                                + " (one per option picked, and one per option and first letters typed before it,"
                                + " not one per pick); running servers apply it within learning.apply-seconds.");
            }
            return 0;
        }

        /** Refuses a tenant with no directory here, or a product slug its {@code tenant.yaml} lacks. */
        private void requireKnown(java.nio.file.Path tenants) {
            java.nio.file.Path directory = tenants.resolve(tenant).normalize();
            if (!directory.getParent().equals(tenants.normalize())
                    || !java.nio.file.Files.isRegularFile(directory.resolve(TenantLoader.TENANT_FILE))) {
                throw new IllegalArgumentException("No tenant '" + tenant + "' in " + tenants
                        + ", and the store holds nothing learned for it: nothing forgotten");
            }
            if (product != null) {
                List<String> slugs = KeysCommand.productSlugs(directory);
                if (!slugs.contains(product)) {
                    throw new IllegalArgumentException("No product '" + product + "' in "
                            + directory.resolve(TenantLoader.TENANT_FILE)
                            + (slugs.isEmpty()
                                    ? " (it has no products)"
                                    : "; its products: " + String.join(", ", slugs))
                            + ", and the store holds nothing learned for it: nothing forgotten");
                }
            }
        }
    }
}
