#include "documents.h"

OrderTotals summarize(const nlohmann::json &Orders) {
  OrderTotals T;
  for (const auto &Order : Orders) {
    for (const auto &Item : Order.at("items")) {
      long Quantity = Item.at("quantity").get<long>();
      T.Revenue += Item.at("price").get<double>() * Quantity;
      T.Items += Quantity;
    }
    if (Order.contains("tags"))
      T.Tagged += Order["tags"].size();
  }
  return T;
}
