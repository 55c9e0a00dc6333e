package dev.autocomplete.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * Key format: {@code pk_v1_} or {@code sk_v1_}, 32 random base62 characters (190 bits), then 6 base62
 * characters of CRC-32 over the prefix and the random part, so a mistyped key is refused without a lookup.
 * Keys are stored only as SHA-256 digests; a key's id is derived from its digest.
 */
public final class ApiKeys {

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int RANDOM_CHARS = 32;
    private static final int CHECK_CHARS = 6;

    private final SecureRandom random = new SecureRandom();

    /** A new random key of the given type. */
    public String generate(KeyType type) {
        StringBuilder key = new StringBuilder(type.prefix());
        for (int i = 0; i < RANDOM_CHARS; i++) {
            key.append(BASE62.charAt(random.nextInt(BASE62.length())));
        }
        return key.append(checksum(key)).toString();
    }

    /** The type of a well-formed key with a valid checksum, or null. */
    public static KeyType typeOf(String key) {
        for (KeyType type : KeyType.values()) {
            if (key.startsWith(type.prefix())
                    && key.length() == type.prefix().length() + RANDOM_CHARS + CHECK_CHARS
                    && isBase62(key.substring(type.prefix().length()))
                    && checksum(key.substring(0, key.length() - CHECK_CHARS))
                            .equals(key.substring(key.length() - CHECK_CHARS))) {
                return type;
            }
        }
        return null;
    }

    /** {@code sha256:} and the hex SHA-256 of the key. */
    public static String digest(String key) {
        return "sha256:" + HexFormat.of().formatHex(sha256(key.getBytes(StandardCharsets.UTF_8)));
    }

    /** The public id of a key: {@code key_} and 12 hex characters derived from its digest. */
    public static String idOf(String digest) {
        byte[] hash = sha256(digest.getBytes(StandardCharsets.US_ASCII));
        return "key_" + HexFormat.of().formatHex(hash, 0, 6);
    }

    /**
     * Compares two digests in time that does not depend on where they differ (as {@link MessageDigest#isEqual}, char
     * by char: without the two byte arrays that cost on every authenticated request).
     */
    public static boolean sameDigest(String a, String b) {
        if (a.length() != b.length()) {
            return false; // the length of a digest is no secret: every one is as long
        }
        int difference = 0;
        for (int i = 0; i < a.length(); i++) {
            difference |= a.charAt(i) ^ b.charAt(i);
        }
        return difference == 0;
    }

    private static String checksum(CharSequence body) {
        CRC32 crc = new CRC32();
        crc.update(body.toString().getBytes(StandardCharsets.US_ASCII));
        long value = crc.getValue();
        char[] check = new char[CHECK_CHARS];
        for (int i = CHECK_CHARS - 1; i >= 0; i--) {
            check[i] = BASE62.charAt((int) (value % 62));
            value /= 62;
        }
        return new String(check);
    }

    private static boolean isBase62(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (BASE62.indexOf(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
