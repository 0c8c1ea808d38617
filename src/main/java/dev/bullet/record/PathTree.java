package dev.bullet.record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Paths into one top-level field ({@code m.a}, {@code m.b}, {@code l.0.k}, {@code l.1.k} under {@code m} and
 * {@code l}), as a tree of their segments after the head: a record's value there is read once for all of them
 * ({@link LazyRecord#treeSpans}), each object's members and each list's elements once, instead of once per path.
 * Each path has a position, its place in the answer; positions are reused once free. Not thread-safe.
 */
public final class PathTree {
    /** One segment on the way: its children, and the position of the path that ends here (-1: none). */
    static final class Node {
        final byte[] name;
        /** {@link FieldPath#keyWord} of the name. */
        final long word;
        final int index;
        int end = -1;
        Node[] kids = new Node[0];
        /** The highest list index among the kids (-1: none): a list is read up to it. */
        int maxIndex = -1;
        /** Where the value of the last member of this name starts, while its object is read (-1: not met). */
        int valueAt;

        Node(byte[] name, int index) {
            this.name = name;
            this.word = FieldPath.keyWord(name);
            this.index = index;
        }
    }

    private final String head;
    private final byte[] headUtf8;
    private final long headWord;
    private final int headHash;
    private final List<FieldPath> paths = new ArrayList<>();
    private int size;
    private Node root;

    /** A tree for the paths under this head. */
    public PathTree(String head) {
        this.head = head;
        this.headUtf8 = head.getBytes(StandardCharsets.UTF_8);
        this.headWord = FieldPath.keyWord(headUtf8);
        this.headHash = JsonScanner.hash(headUtf8);
    }

    /** Adds a path under the head (two segments or more); returns its position. */
    public int add(FieldPath path) {
        if (path.depth() < 2 || !path.head().equals(head)) {
            throw new IllegalArgumentException(path + " is not a path into " + head);
        }
        int position = paths.indexOf(null);
        if (position < 0) {
            position = paths.size();
            paths.add(path);
        } else {
            paths.set(position, path);
        }
        size++;
        root = null;
        return position;
    }

    /** Removes the path at this position. */
    public void remove(int position) {
        if (paths.get(position) != null) {
            paths.set(position, null);
            size--;
            root = null;
        }
    }

    /** How many paths the tree holds. */
    public int size() {
        return size;
    }

    /** One past the highest position in use: the length an answer needs. */
    public int capacity() {
        return paths.size();
    }

    /** The path at a position, or null when it is free. */
    public FieldPath path(int position) {
        return paths.get(position);
    }

    long headWord() {
        return headWord;
    }

    /** {@link JsonScanner#hash} of the head. */
    int headHash() {
        return headHash;
    }

    byte[] headUtf8() {
        return headUtf8;
    }

    /** The tree of segments, built again after paths come or go. */
    Node root() {
        if (root == null) {
            Node built = new Node(headUtf8, -1);
            for (int p = 0; p < paths.size(); p++) {
                FieldPath path = paths.get(p);
                if (path == null) {
                    continue;
                }
                Node at = built;
                for (int seg = 1; seg < path.depth(); seg++) {
                    at = child(at, path.segmentUtf8(seg), path.index(seg));
                }
                at.end = p;
            }
            root = built;
        }
        return root;
    }

    private static Node child(Node parent, byte[] name, int index) {
        for (Node kid : parent.kids) {
            if (Arrays.equals(kid.name, name)) {
                return kid;
            }
        }
        Node kid = new Node(name, index);
        parent.kids = Arrays.copyOf(parent.kids, parent.kids.length + 1);
        parent.kids[parent.kids.length - 1] = kid;
        parent.maxIndex = Math.max(parent.maxIndex, index);
        return kid;
    }
}
