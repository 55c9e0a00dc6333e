package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A page whose public key expired gets {@code 401 INVALID_CREDENTIALS}, and its product's analytics count those
 * refusals (an operator trial saw them nowhere): the likeliest way an integration breaks. A key nobody knows stays
 * nobody's. Over HTTP, the console's JSON read back.
 */
class ExpiredKeyAnalyticsTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withKey("expired", "workspace", "--expires", "2020-01-01");

    @Test
    void the_refusals_of_an_expired_public_key_count_for_its_product() throws Exception {
        for (int i = 0; i < 3; i++) {
            ApiClient.Reply reply = demo.api().suggest(demo.key("expired"), envelope("Create an email"));
            assertEquals(401, reply.status(), reply.raw());
            assertEquals("INVALID_CREDENTIALS", reply.errorCode(), reply.raw());
        }
        ApiClient.Reply unknown = demo.api().suggest("pk_v1_" + "Z".repeat(40), envelope("Create"));
        assertEquals(401, unknown.status(), unknown.raw());

        JsonNode workspace = AnalyticsTest.analytics(demo, "workspace");
        assertEquals(3, workspace.path("refused").asInt(), workspace.toString());
        assertEquals(
                List.of("suggest 401 INVALID_CREDENTIALS=3"),
                AnalyticsTest.refusals(workspace.path("refused_by_code")),
                workspace.toString());
        assertEquals(
                List.of(),
                AnalyticsTest.refusals(AnalyticsTest.analytics(demo, "travel").path("refused_by_code")));
        JsonNode server =
                AnalyticsTest.management(demo).get("/admin/api/overview").data().path("server");
        List<String> nobody = AnalyticsTest.refusals(server.path("refused_without_tenant"));
        assertEquals(List.of("suggest 401 INVALID_CREDENTIALS=1"), nobody, server.toString());
        assertFalse(server.toString().contains("pk_v1_"), "never a key: " + server);
    }
}
