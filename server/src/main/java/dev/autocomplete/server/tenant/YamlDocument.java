package dev.autocomplete.server.tenant;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML file read into plain maps, lists and scalars, remembering the line of every key, so that a
 * problem found later can be reported as {@code file:line}. Paths look like {@code products[0].config.prompt}.
 */
public final class YamlDocument {

    /**
     * YAML 1.1 reads {@code on}, {@code off}, {@code yes} and {@code no} as booleans, so a cue list {@code [on]}
     * would hold {@code true}: only {@code true} and {@code false} are booleans here.
     */
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLParser.Feature.PARSE_BOOLEAN_LIKE_WORDS_AS_STRINGS)
            .build();
    /** A position SnakeYAML quotes in a message: where, then the source line and a caret under the column. */
    private static final Pattern MARK = Pattern.compile("\\s*in '[^']*', line (\\d+), column \\d+:\\R.*\\R\\s*\\^");

    private final Path file;
    private final Object root;
    private final Map<String, Integer> lines;

    private YamlDocument(Path file, Object root, Map<String, Integer> lines) {
        this.file = file;
        this.root = root;
        this.lines = lines;
    }

    /**
     * Reads a YAML file.
     *
     * @throws TenantException with the line of the syntax error when the file is not valid YAML
     */
    public static YamlDocument read(Path file) throws TenantException, IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                JsonParser parser = YAML.createParser(reader)) {
            Map<String, Integer> lines = new HashMap<>();
            JsonToken first = parser.nextToken();
            Object root = first == null ? null : value(parser, "", lines);
            return new YamlDocument(file, root, Map.copyOf(lines));
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new TenantException(syntaxProblem(file, line, String.valueOf(e.getOriginalMessage())));
        }
    }

    /**
     * A YAML syntax error as one {@code file:line: message} line. SnakeYAML's message quotes the source under each
     * position it names ({@code in 'reader', line 2, column 3:}, the line, a caret); the last position is where the
     * problem is.
     */
    private static Problem syntaxProblem(Path file, int line, String message) {
        Matcher mark = MARK.matcher(message);
        StringBuilder text = new StringBuilder();
        int at = line;
        while (mark.find()) {
            at = Integer.parseInt(mark.group(1));
            mark.appendReplacement(text, "");
        }
        mark.appendTail(text);
        String oneLine = text.toString().strip().replaceAll("\\s*\\R\\s*", "; ");
        return new Problem(file, at, "not valid YAML: " + oneLine);
    }

    public Path file() {
        return file;
    }

    /** The document's root value: a map, a list, a scalar, or null for an empty file. */
    public Object root() {
        return root;
    }

    /** The line of a key, or of its closest enclosing key that has one; 0 when unknown. */
    public int line(String path) {
        String p = path;
        while (!p.isEmpty()) {
            Integer line = lines.get(p);
            if (line != null) {
                return line;
            }
            int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
            p = cut < 0 ? "" : p.substring(0, cut);
        }
        return 0;
    }

    /** A problem at a key of this document. */
    public Problem problem(String path, String message) {
        return new Problem(file, line(path), path.isEmpty() ? message : path + ": " + message);
    }

    private static Object value(JsonParser parser, String path, Map<String, Integer> lines) throws IOException {
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    String child = path.isEmpty() ? key : path + "." + key;
                    lines.put(child, parser.currentTokenLocation().getLineNr());
                    parser.nextToken();
                    map.put(key, value(parser, child, lines));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                int i = 0;
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    String child = path + "[" + i++ + "]";
                    lines.put(child, parser.currentTokenLocation().getLineNr());
                    list.add(value(parser, child, lines));
                }
                return list;
            }
            case VALUE_STRING -> {
                return parser.getText();
            }
            case VALUE_NUMBER_INT -> {
                return parser.getNumberValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return parser.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            default -> {
                return null;
            }
        }
    }
}
