package dev.autocomplete.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@link ConfigTree#unread()} counts as read: the server refuses the rest after an engine's factory ran. */
class ConfigTreeTest {

    @Test
    void keys_no_reader_asked_for_are_unread_and_named_after_the_key_asked_for_or_read_elsewhere() throws Exception {
        ConfigTree param = ConfigTree.at(
                "params[1]",
                Map.of("values", "a,b", "requird", true, "limt", 3, "colour", "red"),
                Set.of("type", "required"));
        param.string("values");
        param.integer("limit", 10); // absent: asked for all the same, so 'limt' is its misspelling
        List<String> unread = param.unread().stream()
                .map(e -> e.key() + ": " + e.getMessage())
                .sorted()
                .toList();
        assertEquals(
                List.of(
                        "params[1].colour: is not a known key (known: limit, required, type, values)",
                        "params[1].limt: is not a known key; did you mean 'limit'?",
                        "params[1].requird: is not a known key; did you mean 'required'?"),
                unread);
    }

    @Test
    void listing_the_keys_or_checking_them_reads_them_all() throws Exception {
        ConfigTree listed = ConfigTree.of(Map.of("x", 1, "y", 2));
        listed.keys();
        assertEquals(List.of(), listed.unread());
        ConfigTree checked = ConfigTree.of(Map.of("x", 1, "y", 2));
        assertEquals(1, checked.unknownKeys(Set.of("x")).size());
        assertEquals(List.of(), checked.unread(), "a reader that checks its keys reports them itself");
        assertEquals(
                "is not a known key (no key is read here)",
                ConfigTree.of(Map.of("z", 1)).unread().getFirst().getMessage());
    }

    @Test
    void a_nested_map_asked_for_twice_is_one_tree_that_remembers_what_was_read() throws Exception {
        ConfigTree root = ConfigTree.of(Map.of("engine", Map.of("data", "people.csv")));
        root.tree("engine").string("data");
        // A second product's engine asks for the same map; what a shared builder read the first time counts.
        assertSame(root.tree("engine"), root.tree("engine"));
        assertEquals(List.of(), root.tree("engine").unread());
    }
}
