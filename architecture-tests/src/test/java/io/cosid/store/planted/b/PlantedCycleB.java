package io.cosid.store.planted.b;

import io.cosid.store.planted.a.PlantedCycleA;

/** Planted violation: package b uses package a, which uses package b. */
public class PlantedCycleB {
    PlantedCycleA other;
}
