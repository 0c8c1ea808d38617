/**
 * Kryo serializers, registered with Storm, for the tuples that cross workers: lazily decoded records (their bytes),
 * map records, RAW partials (the JSON array of their rows) and empty maps. Within one worker tuples are not
 * serialized at all. Storm adapters: nothing here holds logic of the engine.
 */
package dev.bullet.storm.serialization;
