package dev.bullet.bql;

import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The columns an expression after the aggregation can name, layer on layer, as bullet-bql 1.3.2's
 * {@code LayeredSchema} holds them without a schema: each layer holds the columns one step made (the projection, the
 * aggregation, a computation) and the aliases it gave ({@code name → alias}); a locked layer hides the layers below it.
 * The record under every layer has no known fields. An expression whose BQL name is a column (or an aliased name)
 * reads that column; anything else is computed from its parts ({@link ExprBuilder}). Not thread-safe.
 */
final class Scope {
    private record Layer(Set<String> columns, Map<String, String> aliases, boolean locked) {
    }

    private final List<Layer> layers = new ArrayList<>();
    private final Map<String, ExprType> types = new HashMap<>();
    private Set<String> columns = new LinkedHashSet<>();
    private Map<String, String> aliases = new LinkedHashMap<>();

    /** Adds a column to the layer being built. */
    void column(String name) {
        columns.add(name);
    }

    /** Adds a column of a known type ({@code UNKNOWN} for none) to the layer being built. */
    void column(String name, ExprType type) {
        columns.add(name);
        if (type != null && type != ExprType.UNKNOWN) {
            types.put(name, type);
        }
    }

    /** The type bullet-bql knows a column to have, or null. */
    ExprType type(String column) {
        return types.get(column);
    }

    /**
     * Whether a name that is no column reads the record: no layer hides it (bullet-bql's schema-less record answers
     * every name below the layers; a locked layer makes any other name "not in the schema").
     */
    boolean readsRecord() {
        return layers.stream().noneMatch(Layer::locked);
    }

    /** Adds an alias ({@code name} is known as the column {@code alias}) to the layer being built. */
    void alias(String name, String alias) {
        aliases.put(name, alias);
    }

    /** Closes the layer being built and puts it on top; a locked layer hides those below. */
    void addLayer(boolean lock) {
        layers.add(0, new Layer(columns, aliases, lock));
        columns = new LinkedHashSet<>();
        aliases = new LinkedHashMap<>();
    }

    /** Adds a column to the top layer (bullet-bql's ORDER BY fields a plain SELECT projects in addition). */
    void addToTop(String name) {
        layers.get(0).columns().add(name);
    }

    /** The column a name reads: a column of a visible layer, or the column an alias names; null for none. */
    String find(String name) {
        for (Layer layer : layers) {
            if (layer.columns().contains(name)) {
                return name;
            }
            String alias = layer.aliases().get(name);
            if (alias != null) {
                return alias;
            }
            if (layer.locked()) {
                break;
            }
        }
        return null;
    }

    /** The columns of the visible layers (bullet-bql's {@code getFieldNames}). */
    Set<String> visibleColumns() {
        Set<String> names = new LinkedHashSet<>();
        for (Layer layer : layers) {
            names.addAll(layer.columns());
            if (layer.locked()) {
                break;
            }
        }
        return names;
    }

    /**
     * The names that were given an alias but are no column of their visible layer (bullet-bql's
     * {@code getExtraneousAliases}): SELECT *, a AS b removes a.
     */
    Set<String> extraneousAliases() {
        Set<String> names = new LinkedHashSet<>();
        for (Layer layer : layers) {
            layer.aliases().keySet().stream().filter(n -> !layer.columns().contains(n)).forEach(names::add);
            if (layer.locked()) {
                break;
            }
        }
        return names;
    }
}
