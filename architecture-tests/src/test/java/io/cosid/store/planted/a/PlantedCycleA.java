package io.cosid.store.planted.a;

import io.cosid.store.planted.b.PlantedCycleB;

/** Planted violation: package a uses package b, which uses package a. */
public class PlantedCycleA {
    PlantedCycleB other;
}
