/**
 * The schema of the firehose, for people who do not know its fields yet ({@code GET /api/bullet/schema}, the console's
 * schema panel, validation warnings): read from a schema file in the original Bullet's format ({@link SchemaFile}),
 * or inferred from a sample of the stream ({@link SchemaInference}, fed by {@link SchemaSampler}'s small internal
 * query through the topology). {@link FirehoseSchema} is the facade the REST service holds;
 * {@link QueryFieldCheck} turns a query's fields and the schema into warnings.
 */
package dev.bullet.schema;
