package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/engine-guide.md and the example it walks through (examples/engine-repos) agree with each other and with what
 * an author's build needs; an engine author's trial, working from the guide alone, found where they did not.
 */
class EngineGuideTest {

    private static final Path ROOT = TestTenants.repoRoot();

    private static String read(String file) throws Exception {
        return Files.readString(ROOT.resolve(file));
    }

    /** The guide's XML blocks, from its start to its SPI section: the pom an author copies. */
    private static String guidePom() throws Exception {
        String guide = read("docs/engine-guide.md");
        String setUp = guide.substring(0, guide.indexOf("## The SPI in one page"));
        StringBuilder xml = new StringBuilder();
        Matcher block = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL).matcher(setUp);
        while (block.find()) {
            xml.append(block.group(1));
        }
        return xml.toString();
    }

    /**
     * Each plugin `mvn install` runs is pinned in the guide's pom: Maven's default install plugin (2.4) fails offline,
     * and the guide's snippet left it out though the example pins it.
     */
    @Test
    void the_guides_pom_pins_every_plugin_mvn_install_runs() throws Exception {
        String pom = guidePom();
        List<String> missing = new ArrayList<>();
        for (String plugin : List.of(
                "maven-resources-plugin",
                "maven-compiler-plugin",
                "maven-surefire-plugin",
                "maven-jar-plugin",
                "maven-install-plugin")) {
            if (!Pattern.compile("<artifactId>" + plugin + "</artifactId>\\s*<version>[0-9.]+</version>")
                    .matcher(pom)
                    .find()) {
                missing.add(plugin);
            }
        }
        assertEquals(List.of(), missing, "not pinned in the guide's pom:\n" + pom);
    }

    /**
     * The guide says to give the JAR a fixed name; the example had none (`engine-repos-1.0.0-SNAPSHOT.jar`), which its
     * tenant.yaml, CI and the guide's own log sample repeated.
     */
    @Test
    void the_example_builds_the_fixed_jar_name_the_guide_advises_and_everything_names_it() throws Exception {
        Matcher finalName =
                Pattern.compile("<finalName>([^<]+)</finalName>").matcher(read("examples/engine-repos/pom.xml"));
        assertTrue(finalName.find(), "examples/engine-repos/pom.xml has no <finalName>");
        String jar = finalName.group(1) + ".jar";
        assertEquals("engine-repos.jar", jar);

        assertTrue(read("examples/engine-repos/tenant/tenant.yaml").contains("target/" + jar));
        assertTrue(read(".ci/run").contains("examples/engine-repos/target/" + jar));
        String guide = read("docs/engine-guide.md");
        assertTrue(guide.contains("<finalName>engine-repos</finalName>"));
        assertTrue(guide.contains("engine JARs: " + jar + " version "), "the guide's load line names another JAR");
        for (String file : List.of(
                "docs/engine-guide.md",
                "examples/engine-repos/README.md",
                "examples/engine-repos/tenant/tenant.yaml",
                ".ci/run")) {
            assertFalse(read(file).contains("engine-repos-1.0.0-SNAPSHOT.jar"), file + " names the versioned JAR");
        }
    }
}
