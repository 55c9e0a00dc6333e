package dev.autocomplete.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit runs a tenant directory through the server's own loading and reading: a travel tenant with the built-in
 * catalog and date engines, and small tenants with an engine found on the test class path or passed in.
 */
class EngineTestKitTest {

    private static final LocalDate MONDAY = LocalDate.of(2026, 3, 2);

    private static final String PAINT = """
            products:
              - id: 7e1d2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f
                slug: paint
                intents:
                  - name: paint
                    phrases: [Paint the]
                    params:
                      - {type: room, required: true, options: [Kitchen, Bedroom]}
                      - {type: color, required: true, cues: [in], engine: colors}
            """;

    /** The demo's travel product in small: cities from a catalog, the date from the date engine, in two languages; a time zone far from UTC. */
    private static final String TRIPS = """
            default_language: en
            catalogs:
              cities:
                options: [Paris, London, Lisbon, Lyon, Lima]
            products:
              - id: 6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61
                slug: travel
                time_zone: Pacific/Kiritimati
                intents:
                  - name: book_flight
                    phrases: {en: [Book a flight from], fr: [Réserver un vol de]}
                    params:
                      - {type: origin, required: true, cues: {en: [from], fr: [de]}, catalog: cities}
                      - {type: destination, required: true, cues: {en: [to], fr: [à]}, catalog: cities}
                      - {type: date, cues: {en: [on], fr: [le]}, engine: date}
            """;

    private static EngineTestKit trips;

    @TempDir
    static Path tenants;

    @TempDir
    Path temp;

    @BeforeAll
    static void loadTrips() throws IOException {
        Path directory = Files.createDirectories(tenants.resolve("trips"));
        Files.writeString(directory.resolve("tenant.yaml"), TRIPS);
        trips = EngineTestKit.tenant(directory);
    }

    @AfterAll
    static void closeTrips() {
        trips.close();
    }

    @Test
    void a_typed_date_next_to_picked_cities_is_ready_with_the_date_read_by_the_date_engine() {
        Answer answer = trips.product("travel")
                .today(MONDAY)
                .pick("origin", "Paris")
                .pick("destination", "London")
                .suggest("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} on 12 march");
        assertTrue(answer.isReady(), answer.toString());
        assertEquals("12 march", answer.identified("date").getFirst().text(), answer.toString());
        assertEquals("completed", answer.identified("date").getFirst().state(), answer.toString());
        assertEquals("ok", answer.engineOutcome());
    }

    @Test
    void today_is_the_date_the_test_sets_in_the_products_time_zone() {
        ProductClient travel = trips.product("travel").pick("origin", "Paris").pick("destination", "London");
        Answer monday = travel.today(MONDAY).suggest("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} ");
        assertEquals(
                "Monday 2 March 2026",
                monday.options("date").stream().findFirst().orElse(null),
                monday.toString());
        Answer friday = travel.today(MONDAY.plusDays(4))
                .language("fr")
                .suggest("Réserver un vol de {{ORIGIN_1}} à {{DESTINATION_1}} ");
        assertEquals(
                "vendredi 6 mars 2026",
                friday.options("date").stream().findFirst().orElse(null),
                friday.toString());
    }

    @Test
    void additional_context_ranks_the_options_it_names_first() {
        Answer answer =
                trips.product("travel").context("{\"origin\": \"Lisbon\"}").suggest("Book a flight from L");
        assertEquals("Lisbon", answer.options("origin").getFirst(), answer.toString());
    }

    @Test
    void a_pick_of_a_type_the_product_does_not_declare_is_a_mistake_in_the_test() {
        IllegalArgumentException misspelt = assertThrows(
                IllegalArgumentException.class, () -> trips.product("travel").pick("origins", "Paris"));
        assertEquals(
                "product 'travel' has no param of type 'origins' (its types: origin, destination, date)",
                misspelt.getMessage());
        assertThrows(
                IllegalArgumentException.class, () -> trips.product("travel").dismiss("dat"));
    }

    @Test
    void a_body_the_server_would_refuse_throws_with_the_servers_error_code() {
        RequestRefused refused = assertThrows(RequestRefused.class, () -> trips.product("travel")
                .pick("{{DESTINATION_1}}", "origin", "Paris")
                .suggest("{{DESTINATION_1}}"));
        assertEquals(400, refused.status());
        assertEquals("INVALID_COMPLETED_PARAMS", refused.code());
    }

    @Test
    void an_engine_on_the_class_path_serves_the_params_that_name_it() throws IOException {
        try (EngineTestKit kit = EngineTestKit.tenant(tenant("paint", PAINT))) {
            ProductClient paint = kit.product("paint");
            assertEquals(
                    List.of("Red", "Green", "Blue"),
                    paint.pick("room", "Kitchen")
                            .suggest("Paint the {{ROOM_1}} in ")
                            .options("color"));
            assertTrue(paint.pick("room", "Kitchen")
                    .suggest("Paint the {{ROOM_1}} in green")
                    .isReady());
        }
    }

    @Test
    void a_factory_passed_in_replaces_the_one_of_the_same_name_on_the_class_path() throws IOException {
        try (EngineTestKit kit = EngineTestKit.tenant(tenant("paint", PAINT))
                .withEngine(new ColorsEngineFactory(List.of("Ochre", "Olive")))) {
            Answer answer = kit.product().pick("room", "Kitchen").suggest("Paint the {{ROOM_1}} in O");
            assertEquals(List.of("Ochre", "Olive"), answer.options("color"), answer.toString());
            assertFalse(answer.isReady());
        }
    }

    @Test
    void a_tenant_that_does_not_load_reports_each_problem_with_its_file_and_line() throws IOException {
        String unknown = PAINT.replace("engine: colors", "engine: paints");
        try (EngineTestKit kit = EngineTestKit.tenant(tenant("broken", unknown))) {
            assertEquals(1, kit.problems().size(), kit.problems().toString());
            assertTrue(
                    kit.problems()
                            .getFirst()
                            .matches(".*tenant\\.yaml:9: .*names no engine 'paints'; available: .* on the test's class"
                                    + " path, each found through its META-INF/services/"
                                    + "dev\\.autocomplete\\.spi\\.EngineFactory file.*"),
                    kit.problems().toString());
            TenantLoadException thrown = assertThrows(TenantLoadException.class, () -> kit.product("paint"));
            assertEquals(kit.problems(), thrown.problems());
        }
    }

    @Test
    void a_factory_that_throws_is_reported_with_where_it_threw() throws IOException {
        // A resource missing from the JAR: a bare NullPointerException, which alone says nothing of where.
        EngineFactory throwing = new EngineFactory() {
            @Override
            public String name() {
                return "colors";
            }

            @Override
            public Engine create(EngineContext context) {
                return Objects.requireNonNull(null);
            }
        };
        try (EngineTestKit kit = EngineTestKit.tenant(tenant("throwing", PAINT)).withEngine(throwing)) {
            assertEquals(1, kit.problems().size(), kit.problems().toString());
            String problem = kit.problems().getFirst();
            assertTrue(
                    problem.matches(
                            ".*tenant\\.yaml:9: .*engine: engine 'colors' failed to start:"
                                    + " java\\.lang\\.NullPointerException at java\\.base/java\\.util\\.Objects\\.requireNonNull"
                                    + ".* < dev\\.autocomplete\\.testkit\\.EngineTestKitTest\\$\\d+\\.create\\(EngineTestKitTest\\.java:\\d+\\).*"),
                    problem);
        }
    }

    @Test
    void context_given_as_a_map_is_sent_as_json() {
        Answer answer = trips.product("travel")
                .context(Map.of("origin", List.of("Lisbon")))
                .suggest("Book a flight from Li");
        assertEquals("Lisbon", answer.options("origin").getFirst(), answer.toString());
    }

    private Path tenant(String name, String yaml) throws IOException {
        Path directory = Files.createDirectories(temp.resolve(name));
        Files.writeString(directory.resolve("tenant.yaml"), yaml);
        return directory;
    }
}
